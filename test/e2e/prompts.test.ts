// Create commands ask on a real terminal for what is missing, and check each answer as it is
// typed with the flag's own rule; they never ask with --no-input.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const BACKSPACE = '\x7f';

describe('prompts on a terminal', () => {
  it('orders create refuses "abc" as a customer id at once, then takes a good one', async () => {
    const term = runOnPty(['orders', 'create'], { env: emu.env(), timeoutMs: 30_000 });
    await term.waitFor('Customer id');
    term.type('abc\r');
    await term.waitFor('--customer must be a positive whole number, e.g. --customer 3 (got "abc")');
    // Refused before any other question was asked.
    expect(term.text()).not.toContain('Product id');
    term.type(`${BACKSPACE.repeat(3)}3\r`);
    await term.waitFor('Product id');
    term.type('1:2\r');
    await term.waitFor('Currency');
    term.type('EURO\r');
    await term.waitFor('--currency must be a three-letter currency code');
    term.type(`${BACKSPACE}\r`);
    await term.waitFor('Invoice id');
    term.type('PTY-0001\r');
    const result = await term.exited;
    expect(result.code, result.text).toBe(0);
    const created = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    expect(JSON.stringify(created.body)).toContain('PTY-0001');
  });

  it('customers create asks for the names it needs, and refuses an empty one', async () => {
    const term = runOnPty(['customers', 'create', '--email', 'ada@example.com'], { env: emu.env() });
    await term.waitFor('First name');
    term.type('Ada\r');
    await term.waitFor('Last name');
    term.type('   \r');
    await term.waitFor('missing --last-name');
    term.type('Lovelace\r');
    const result = await term.exited;
    expect(result.code, result.text).toBe(0);
    expect(result.text).toContain('Created customer');
  });

  it('products create checks the price as it is typed', async () => {
    const term = runOnPty(['products', 'create', '--name', 'Tea', '--currency', 'EUR'], { env: emu.env() });
    await term.waitFor('Price');
    term.type('abc\r');
    await term.waitFor('--price must be an amount');
    term.type(`${BACKSPACE.repeat(3)}4.50\r`);
    const result = await term.exited;
    expect(result.code, result.text).toBe(0);
    expect(result.text).toContain('Created product');
  });

  it('never asks with --no-input, even on a terminal', async () => {
    const result = await runOnPty(['products', 'create', '--no-input'], { env: emu.env() }).exited;
    expect(result.code).toBe(2);
    expect(result.text).toContain('missing --name (the product\'s name), e.g. --name "Gold plan"');
    expect(result.text).not.toContain('Product name');
  });

  it('in production, a delete asks at a terminal, and "no" sends nothing', async () => {
    const term = runOnPty(['customers', 'delete', '8'], { env: emu.env({ BILLING_ENV: 'production' }) });
    await term.waitFor('Production (production): delete customer 8?');
    term.type('n\r');
    const result = await term.exited;
    expect(result.code).toBe(2);
    expect(result.text).toContain('cancelled: nothing was sent');
    const still = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/customers/8');
    expect(still.status).toBe(200);
  });

  it('login asks for the version 1 base too, offering the one derived from the version 2 base', async () => {
    const env = baseEnv();
    const term = runOnPty(['login', '--env', 'sandbox'], { env });
    await term.waitFor('API version 2 base URL');
    term.type(`${emu.url}/api/v2\r`);
    await term.waitFor(`(${emu.url}/api/v1)`);
    term.type('\r');
    await term.waitFor('Merchant profile id');
    term.type('abc\r');
    await term.waitFor('--profile must be a positive whole number');
    term.type(`${BACKSPACE.repeat(3)}1\r`);
    await term.waitFor('API token');
    term.type(`${LOCAL_EMULATOR.token}\r`);
    const result = await term.exited;
    expect(result.code, result.text).toBe(0);
    expect(result.text).not.toContain(LOCAL_EMULATOR.token);
    const status = await runCli(['status', '--env', 'sandbox', '-o', 'json'], { env });
    expect(status.stdout).toContain(`${emu.url}/api/v1`);
  });

  it('orders subscribe asks for the start date and checks it as a date flag', async () => {
    const term = runOnPty(['orders', 'subscribe', '--customer', '1', '--product', '2', '--currency', 'EUR'], {
      env: emu.env(),
    });
    await term.waitFor('First scheduled payment');
    term.type('2030-02-30\r');
    await term.waitFor('--start-date must be a date like');
    term.type(`${BACKSPACE.repeat(10)}2030-01-31T09:00\r`);
    const result = await term.exited;
    expect(result.code, result.text).toBe(0);
    const newest = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    const order = newest.body.orders[0];
    expect(order.order_type.value).toBe('subscription');
    // Its one billing event is created when it becomes active (its first payment): on the start date.
    const paid = await runCli(['orders', 'pay', String(order.id)], { env: emu.env() });
    expect(paid.code, paid.stderr).toBe(0);
    const schedule = await runCli(['orders', 'schedule', String(order.id), '-o', 'json'], { env: emu.env() });
    expect(JSON.parse(schedule.stdout)[0].due_date).toBe('2030-01-31T09:00:00.000Z');
  });
});

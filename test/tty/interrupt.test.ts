// Ctrl-C on a real terminal: the byte 0x03 typed into a pseudo-terminal, as a person does,
// with the spinners, progress lines and prompts that only a terminal turns on. Each test
// checks the exit code, what the screen says, and what the emulator recorded.

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, makeOrder, makeProduct } from '../checkout/helpers.js';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { holdRefunds } from '../helpers/money-runs.js';
import { runOnPty } from '../helpers/pty.js';
import { journalLines, refundsOf, seedPayments, waitFor } from '../payments/helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(() => emu.close());

const ETX = '\x03';

function refundFile(payments: number[], amount = ''): string {
  const path = join(tempDir('billing-tty-'), 'refunds.csv');
  writeFileSync(path, `payment_id,amount\n${payments.map((p) => `${p},${amount}`).join('\n')}\n`);
  return path;
}

/**
 * For commands that show nothing before they read the terminal: time for Node to start.
 * A Ctrl-C that comes sooner still ends the command (exit 130), only without our handler.
 */
const startedReading = () => new Promise((r) => setTimeout(r, 1000));

/** The spinner hid the cursor; whatever the way out, it must be shown again. */
function cursorShown(raw: string): boolean {
  return raw.lastIndexOf('\u001b[?25h') > raw.lastIndexOf('\u001b[?25l');
}

async function setFaults(url: string, faults: unknown[]): Promise<void> {
  await emulatorApi(url, 'POST', '/__emulator/faults', { faults });
}

/** Runs the refunds file again: it ends 0 and each payment holds exactly one refund of `amount`. */
async function rerunOnce(file: string, payments: number[], amount: string, env = emu.env()) {
  const rerun = await runCli(['payments', 'refund', '--file', file, '-o', 'ndjson'], {
    env,
    timeoutMs: 30_000,
  });
  expect(rerun.code, rerun.stderr).toBe(0);
  for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual([amount]);
  return rerun;
}

describe('Ctrl-C while a spinner or progress line shows', () => {
  it('orders list --all against a slow service: exit 130 at once, the last progress line stays', async () => {
    const slow = await startTestEmulator({ latencyMs: 150 });
    try {
      await emulatorApi(slow.url, 'POST', '/__emulator/bulk-orders', { count: 3000 });
      const term = runOnPty(['orders', 'list', '--all', '--items', '20'], { env: slow.env() });
      await term.waitFor(/Read \d+ records/);
      const sent = Date.now();
      term.type(ETX);
      const result = await term.exited;
      expect(result.code).toBe(130);
      // At once: long before the 3,000 orders at 150 ms a page (150 pages, 22 s and more) are read.
      expect(Date.now() - sent).toBeLessThan(15_000);
      expect(result.text).toMatch(/✗ Read \d+ records/);
      expect(result.text).toContain('interrupted');
      expect(result.text).not.toContain('BULK-3000');
      expect(cursorShown(result.raw)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('bulk refund: the first Ctrl-C lets the refunds in flight finish, says what was not started; a re-run completes the rest once', async () => {
    const { payments } = await seedPayments(emu.url, 12, { amount: '20.00' });
    const file = refundFile(payments);
    await setFaults(emu.url, [{ route: 'refund', mode: 'slow', latency_ms: 600 }]);
    try {
      const term = runOnPty(['payments', 'refund', '--file', file, '--concurrency', '2'], { env: emu.env() });
      await term.waitFor(/[2-9]\/12: /);
      term.type(ETX);
      await term.waitFor('Stopping: letting the refunds in flight finish');
      const result = await term.exited;
      expect(result.code).toBe(130);
      const summary =
        /(\d+) refunded, 0 skipped \(refunded by an earlier run\), 0 failed, (\d+) not started, of 12 rows/.exec(
          result.text,
        );
      expect(summary, result.text).not.toBeNull();
      const [done, notStarted] = [Number(summary?.[1]), Number(summary?.[2])];
      expect(done + notStarted).toBe(12);
      expect(notStarted).toBeGreaterThan(0);
      const refunded = payments.filter((p) => refundsOf(emu.emulator.state, p).length > 0);
      expect(refunded).toHaveLength(done);
      for (const p of payments) expect(refundsOf(emu.emulator.state, p).length).toBeLessThanOrEqual(1);
    } finally {
      await setFaults(emu.url, []);
    }
    const rerun = await rerunOnce(file, payments, '20.00');
    expect(parseNdjson(rerun.stdout)).toHaveLength(12);
  });

  it('bulk refund: a second Ctrl-C quits at once; the refunds in flight are in the journal and checked on the next run', async () => {
    const { payments } = await seedPayments(emu.url, 8, { amount: '20.00' });
    const file = refundFile(payments, '5.00');
    const landed = () => payments.filter((p) => refundsOf(emu.emulator.state, p).length > 0).length;
    // The refunds go through a double that holds them until the test lets them go (was: 8 s each
    // at the service): four in flight, the CLI quits, then they land at the service without it.
    const held = await holdRefunds(emu.url);
    const env = emu.env({
      BILLING_BASE_URL: `${held.url}/api/v2`,
      BILLING_BASE_URL_V1: `${held.url}/api/v1`,
    });
    try {
      const term = runOnPty(['payments', 'refund', '--file', file, '--concurrency', '4'], { env });
      await waitFor(() => journalLines(`${file}.journal`).filter((l) => l.state === 'started').length === 4);
      await waitFor(() => held.arrived() === 4);
      term.type(ETX);
      await term.waitFor('Ctrl-C again to quit now');
      term.type(ETX);
      const result = await term.exited;
      // At once: it did not wait for the refunds in flight (held at the double).
      const landedAtExit = landed();
      expect(landedAtExit).toBeLessThan(4);
      expect(result.code).toBe(130);
      expect(result.text).toContain('quitting now');
      expect(cursorShown(result.raw)).toBe(true);
      // The refunds that were in flight land at the service after the CLI is gone.
      held.release();
      await waitFor(() => landed() === 4, 20_000);
      expect(held.arrived()).toBe(4);
      const rerun = await rerunOnce(file, payments, '5.00', env);
      expect(rerun.stderr).toContain('8 refunded, 0 skipped');
    } finally {
      held.release();
      await held.close();
    }
  });

  it('orders watch: exit 130, nothing changed', async () => {
    const customer = await makeCustomer(emu.url);
    const product = await makeProduct(emu.url);
    const { order } = await makeOrder(emu.url, { customer, product });
    const term = runOnPty(['orders', 'watch', String(order.id), '--interval', '0.2'], { env: emu.env() });
    await term.waitFor(`order ${order.id}  draft`);
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(result.text).toContain('interrupted');
    expect(emu.emulator.state.orders.get(order.id)?.status).toBe('draft');
  });
});

describe('Ctrl-C ends a command that runs until stopped: exit 0 after its summary', () => {
  it('webhooks listen', async () => {
    const term = runOnPty(['webhooks', 'listen', '--port', '0'], { env: emu.env() });
    await term.waitFor('Ctrl-C stops.');
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(0);
    expect(result.text).toMatch(/Stopped\. 0 deliveries received/);
  });

  it('checkout open: the page server is closed', async () => {
    const customer = await makeCustomer(emu.url);
    const product = await makeProduct(emu.url);
    const { order } = await makeOrder(emu.url, { customer, product, checkout: true });
    const term = runOnPty(
      ['checkout', 'open', String(order.id), '--no-browser', '--port', '0', '--poll', '0.2'],
      {
        env: emu.env({ BILLING_GATEWAY_URL: `${emu.url}/gateway` }),
      },
    );
    await term.waitFor('Ctrl-C stops.');
    const page = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(term.text())?.[1] as string;
    expect((await fetch(page)).status).toBe(200);
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(0);
    expect(result.text).toContain('Stopped.');
    await expect(fetch(page)).rejects.toThrow();
  });
  it('a foreground emulator', async () => {
    const term = runOnPty(['emulator', 'start', '--port', '0'], { env: emu.env() });
    await term.waitFor('Ctrl-C stops it.');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(term.text())?.[1] as string;
    expect((await adminFetch(`${url}/__emulator/status`)).status).toBe(200);
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(0);
    expect(result.text).toContain('Emulator stopped.');
    await expect(adminFetch(`${url}/__emulator/status`)).rejects.toThrow();
  });
});

describe('Ctrl-C at a prompt: exit 130, nothing written or sent', () => {
  it("login's token prompt writes no config", async () => {
    const env = emu.env({ BILLING_ENV: undefined, BILLING_API_TOKEN: undefined });
    const term = runOnPty(
      [
        'login',
        '--env',
        'shop',
        '--base-url',
        `${emu.url}/api/v2`,
        '--base-url-v1',
        `${emu.url}/api/v1`,
        '--profile',
        '1',
      ],
      { env },
    );
    await term.waitFor('API token');
    term.type('sk_half');
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(result.text).toContain('interrupted');
    expect(result.text).not.toContain('force closed');
    expect(readdirSync(env.BILLING_CONFIG_DIR as string)).toEqual([]);
  });

  it('login --with-token waiting for the token on the terminal writes no config', async () => {
    const env = emu.env({ BILLING_ENV: undefined, BILLING_API_TOKEN: undefined });
    const args = [
      'login',
      '--env',
      'shop',
      '--with-token',
      '--base-url',
      `${emu.url}/api/v2`,
      '--profile',
      '1',
    ];
    const term = runOnPty(args, { env });
    await startedReading();
    term.type('sk_half');
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(readdirSync(env.BILLING_CONFIG_DIR as string)).toEqual([]);
  });

  it('a refunds file read from the terminal (--file -): nothing sent, no journal', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const journal = join(tempDir('billing-tty-'), 'j');
    const term = runOnPty(['payments', 'refund', '--file', '-', '--journal', journal], { env: emu.env() });
    await startedReading();
    term.type(`payment_id,amount\r${payments[0]},1.00\r`);
    await term.waitFor(`${payments[0]},1.00`);
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
    expect(existsSync(journal)).toBe(false);
  });

  it("orders create's prompts create nothing", async () => {
    const before = emu.emulator.state.orders.size;
    const term = runOnPty(['orders', 'create'], { env: emu.env() });
    await term.waitFor('Customer id');
    term.type('1\r');
    await term.waitFor('Product id');
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(result.text).not.toContain('force closed');
    expect(emu.emulator.state.orders.size).toBe(before);
  });

  it('the production confirmation of one refund sends nothing', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const id = payments[0] as number;
    const term = runOnPty(['payments', 'refund', String(id), '--amount', '2'], {
      env: emu.env({ BILLING_ENV: 'production' }),
    });
    await term.waitFor(`refund 2.00 EUR of payment ${id}?`);
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    expect(refundsOf(emu.emulator.state, id)).toEqual([]);
  });

  it('the production confirmation of a refunds file shows the totals, and Ctrl-C sends nothing', async () => {
    const { payments } = await seedPayments(emu.url, 3, { amount: '20.00' });
    const [a, b, c] = payments as [number, number, number];
    const path = join(tempDir('billing-tty-'), 'refunds.csv');
    writeFileSync(path, `payment_id,amount\n${a},1.25\n${b},\n${c},2\n`);
    const term = runOnPty(['payments', 'refund', '--file', path], {
      env: emu.env({ BILLING_ENV: 'production' }),
      cols: 250,
    });
    await term.waitFor('2 refunds, 3.25 EUR; 1 full refund whose amount is read at send time');
    term.type(ETX);
    const result = await term.exited;
    expect(result.code).toBe(130);
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual([]);
    expect(existsSync(`${path}.journal`)).toBe(false);
  });
});

// Issue 10, sections 2-4: every command speaks one language. Dates in every accepted form,
// one wording for a missing or bad value, help that shows what applies, hints that name
// the actual cause, side effects said, and the production guard on deletes and lifecycle.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

/**
 * The built CLI, for what the process itself answers (help in a pipe comes from the build's
 * manifest, dist/help.json) and one case of each wording.
 */
const proc = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runCli(args, { env: emu.env(extra) });
/** The same main() in-process (test/helpers/in-process.ts): what a command says and sends. */
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runInProcess(args, { env: emu.env(extra) });

/** The newest demo order in a status (profile 1). */
async function orderIn(status: string, type?: string): Promise<number> {
  const r = await cli(['orders', 'list', '--all', '-o', 'json']);
  const orders = JSON.parse(r.stdout) as {
    id: number;
    status: { value: string };
    order_type: { value: string };
  }[];
  const found = orders.find((o) => o.status.value === status && (!type || o.order_type.value === type));
  if (!found) throw new Error(`no ${status} order in the demo seed`);
  return found.id;
}

/** A subscription of the demo seed's customer 1 to product 2. */
const subscribeArgs = (startDate: string) => [
  'orders',
  'subscribe',
  '--customer',
  '1',
  '--product',
  '2',
  '--currency',
  'EUR',
  '--start-date',
  startDate,
];

async function subscribe(startDate: string): Promise<number> {
  const r = await cli([...subscribeArgs(startDate), '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const created = await cli(['orders', 'list', '--items', '1', '-o', 'json']);
  return (JSON.parse(created.stdout) as { id: number }[])[0]?.id ?? 0;
}

/** A subscription made active by its first payment (`orders pay`): its one billing event is for the start date. */
async function live(startDate: string): Promise<number> {
  const id = await subscribe(startDate);
  expect(await scheduleOf(id)).toEqual([]);
  const paid = await cli(['orders', 'pay', String(id)]);
  expect(paid.code, paid.stderr).toBe(0);
  return id;
}

async function scheduleOf(orderId: number): Promise<{ id: number; due_date: string; status: string }[]> {
  const r = await cli(['orders', 'schedule', String(orderId), '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('§2 every date flag takes ISO 8601 and the service’s DD/MM/YYYY HH:MM', () => {
  it('orders subscribe --start-date: ISO with a zone is sent day first in UTC', async () => {
    const id = await live('2030-01-31T09:00+01:00');
    expect((await scheduleOf(id))[0]?.due_date).toBe('2030-01-31T08:00:00.000Z');
    const dayFirst = await live('28/02/2030 10:15');
    expect((await scheduleOf(dayFirst))[0]?.due_date).toBe('2030-02-28T10:15:00.000Z');
  });

  it('schedule reschedule and orders resume --restart-date take the same forms', async () => {
    const id = await live('2030-03-31T09:00');
    const [first] = await scheduleOf(id);
    const moved = await cli(['schedule', 'reschedule', String(first?.id), '15/04/2030 07:30']);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await scheduleOf(id)).find((e) => e.id === first?.id)?.due_date).toBe('2030-04-15T07:30:00.000Z');
    const day = await cli(['schedule', 'reschedule', String(first?.id), '2030-04-20']);
    expect(day.code, day.stderr).toBe(0);
    // A day alone keeps the payment's time of day.
    expect((await scheduleOf(id)).find((e) => e.id === first?.id)?.due_date).toBe('2030-04-20T07:30:00.000Z');
    const bad = await cli(['schedule', 'reschedule', String(first?.id), '2030-02-30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the new due date must be a date like 2027-01-31');

    const paused = await orderIn('paused');
    const resume = await cli(['orders', 'resume', String(paused), '--restart-date', '01/06/2031 09:00']);
    expect(resume.code, resume.stderr).toBe(0);
    expect(resume.stderr).toContain(`Order ${paused}: still paused. It stays paused until 2031-06-01`);
  });

  it('emulator clock --to takes a day-first time too', async () => {
    // Its own emulator: moving the clock years ahead changes every order of the seed.
    const own = await startTestEmulator();
    try {
      const port = new URL(own.url).port;
      const run = (args: string[]) => runInProcess(args, { env: own.env() });
      const r = await run([
        'emulator',
        'clock',
        'advance',
        '--to',
        '01/01/2032 06:00',
        '--port',
        port,
        '-o',
        'json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      // The emulator's clock keeps running from where it was set: a few ms may pass before it answers.
      const ahead = Date.parse(JSON.parse(r.stdout).now) - Date.parse('2032-01-01T06:00:00.000Z');
      expect(ahead).toBeGreaterThanOrEqual(0);
      // A minute at most: the clock was set to that moment, not a day or an hour off it.
      expect(ahead).toBeLessThan(60_000);
      const bad = await run(['emulator', 'clock', 'advance', '--to', 'next week', '--port', port]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--to must be a date like');
    } finally {
      await own.close();
    }
  });
});

describe('§3 one wording for a missing or bad value', () => {
  it('names the flag, what it is and an example, for every create command', async () => {
    const cases: [string[], string][] = [
      [['orders', 'create', '--product', '1', '--currency', 'EUR', '--invoice-id', 'X1'], '--customer'],
      [
        ['orders', 'subscribe', '--product', '2', '--currency', 'EUR', '--start-date', '2030-01-01'],
        '--customer',
      ],
      [['orders', 'subscribe', '--customer', '1', '--product', '2', '--currency', 'EUR'], '--start-date'],
      [['customers', 'create', '--last-name', 'Lovelace'], '--first-name'],
      [['products', 'create', '--price', '1.00', '--currency', 'EUR'], '--name'],
    ];
    for (const [args, flag] of cases) {
      const r = await proc(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(
        new RegExp(`^error: missing ${flag} \\(.+\\), e\\.g\\. ${flag} .+\\n`),
      );
      expect(r.stderr).not.toContain('required option');
    }
  });

  it('words a bad value the same way everywhere', async () => {
    const r = await cli(['orders', 'subscribe', '--customer', 'abc', '--product', '2', '--currency', 'EUR']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: --customer must be a positive whole number, e.g. --customer 3 (got "abc")',
    );
    const value = await cli(['orders', 'create', '--customer']);
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('error: --customer needs a value, e.g. --customer 3');
  });

  it('says what a command needs when an id or a file is missing', async () => {
    const refund = await cli(['payments', 'refund']);
    expect(refund.code).toBe(2);
    expect(refund.stderr).toBe(
      'error: give a payment id, or --file FILE\n' +
        'hint: billing payments refund [ids...]; see billing payments refund --help\n',
    );
    const get = await cli(['orders', 'get']);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('error: give an order id');
    expect(get.stderr).toContain('billing orders get <id>');
  });

  it('names the command in the hint of a missing argument, global options before it or not', async () => {
    const cases: [string[], string, string][] = [
      [['search'], 'give a text to look for', 'billing search <text>; see billing search --help'],
      [
        ['--env', 'local', 'search'],
        'give a text to look for',
        'billing search <text>; see billing search --help',
      ],
      [['search', ''], 'give a text to look for', 'billing search <text>; see billing search --help'],
      [
        ['--env', 'local', '-o', 'tsv', 'orders', 'timeline'],
        'give an order id',
        'billing orders timeline <id>; see billing orders timeline --help',
      ],
      [
        ['--profile=1', 'customers', 'get'],
        'give a customer id',
        'billing customers get <id>; see billing customers get --help',
      ],
      [
        ['--env', 'local', 'orders', 'pause'],
        'give an order id, or --file FILE',
        'billing orders pause [ids...]; see billing orders pause --help',
      ],
      [
        ['--env', 'local', 'schedule', 'reschedule', '1'],
        'give a new due date',
        'billing schedule reschedule <id> <date>; see billing schedule reschedule --help',
      ],
    ];
    for (const [args, error, hint] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`error: ${error}`);
      expect(r.stderr, args.join(' ')).toContain(`\nhint: ${hint}\n`);
    }
  });
});

describe('§4 help shows what applies', () => {
  it('lists the global options in every subcommand’s help', async () => {
    const login = await proc(['login', '--help']);
    for (const flag of ['--env', '--base-url', '--base-url-v1', '--profile'])
      expect(login.stdout).toContain(flag);
    const list = await proc(['orders', 'list', '--help']);
    expect(list.stdout).toContain('-o, --output <format>');
  });

  it('billing help <command path> shows that command', async () => {
    const r = await proc(['help', 'orders', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: billing orders list');
    expect(r.stdout).toContain('--status <status>');
    const wrong = await proc(['help', 'orders', 'nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('no command or help topic "orders nope"');
  });

  it('has the topics environment, exit-codes, output, formatting and dates', async () => {
    const expected: Record<string, string[]> = {
      environment: ['BILLING_API_TOKEN', 'BILLING_BASE_URL_V1', 'sk_local_dev_emulator'],
      'exit-codes': ['130', 'webhooks listen', 'checkout open', 'emulator start'],
      output: ['prints that record bare', 'JSON array', 'exit 2'],
      formatting: ['RFC 4180', 'amount', 'currency'],
      dates: ['2027-01-31T09:00', '31/01/2027 09:00', 'YYYY-MM-DD HH:MM UTC'],
    };
    for (const [topic, words] of Object.entries(expected)) {
      const r = await proc(['help', topic]);
      expect(r.code, topic).toBe(0);
      for (const word of words) expect(r.stdout, `${topic}: ${word}`).toContain(word);
    }
  });

  it('states side effects: links url moves a draft order to pending, in help and output', async () => {
    const help = await proc(['links', 'url', '--help']);
    expect(help.stdout).toContain('a draft order becomes pending');
    const draft = await orderIn('draft', 'single_payment');
    const r = await cli(['links', 'url', String(draft)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Order ${draft} moved from draft to pending`);
  });

  it('sends no link for an order with nothing to pay', async () => {
    const complete = await orderIn('complete');
    const before = await emulatorApi(emu.url, 'GET', '/__emulator/outbox');
    const r = await cli(['links', 'email', String(complete)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`order ${complete} is complete: there is nothing to pay`);
    const after = await emulatorApi(emu.url, 'GET', '/__emulator/outbox');
    expect(JSON.stringify(after.body)).toBe(JSON.stringify(before.body));
  });

  it('gives no hint that leads to a refusal: no --renew for a complete order', async () => {
    const complete = await orderIn('complete');
    const r = await cli(['checkout', 'snippet', String(complete)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain('--renew');
  });
});

describe('§4 hints name the actual cause', () => {
  it('a missing record, a page past the last and a wrong API base each get their own hint', async () => {
    const record = await cli(['orders', 'get', '99999']);
    expect(record.code).toBe(5);
    expect(record.stderr).toContain('hint: there is no order 99999 of profile 1');
    const page = await cli(['orders', 'list', '--page', '99']);
    expect(page.code).toBe(5);
    expect(page.stderr).toContain('hint: page 99 is past the last page');
    const base = await cli(['orders', 'list'], { BILLING_BASE_URL: `${emu.url}/v2` });
    expect(base.code).toBe(5);
    expect(base.stderr).toContain('check the API base');
    for (const r of [page, base]) expect(r.stderr).not.toContain('another profile');
  });

  it('a missing version 1 base names the environment and the request, not a function', async () => {
    const r = await runInProcess(subscribeArgs('2030-01-01'), {
      env: baseEnv({
        BILLING_ENV: 'sandbox',
        BILLING_BASE_URL: `${emu.url}/api/v2`,
        BILLING_API_TOKEN: LOCAL_EMULATOR.token,
        BILLING_PROFILE_ID: '1',
      }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('environment "sandbox" has no version 1 base URL');
    expect(r.stderr).toContain('--env sandbox');
    expect(r.stderr).not.toMatch(/createSubscriptionOrderV1|needed by/);
  });

  it('login derives the version 1 base from the version 2 base, and says so', async () => {
    const env = baseEnv();
    const r = await runInProcess(
      ['login', '--env', 'sandbox', '--with-token', '--base-url', `${emu.url}/api/v2`, '--profile', '1'],
      { env, input: LOCAL_EMULATOR.token },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Version 1 base: ${emu.url}/api/v1 (derived from --base-url`);
    const status = await runInProcess(['status', '--env', 'sandbox', '-o', 'json'], { env });
    expect(status.stdout).toContain(`${emu.url}/api/v1`);
  });
});

describe('§4 in production, deletes, pause, resume and cancel ask too', () => {
  const production = { BILLING_ENV: 'production' };
  it('refuses without a terminal unless --yes, and sends nothing', async () => {
    const active = await orderIn('active', 'subscription');
    const paused = await orderIn('paused');
    for (const args of [
      ['customers', 'delete', '8'],
      ['products', 'delete', '5'],
      ['orders', 'pause', String(active)],
      ['orders', 'resume', String(paused)],
      ['orders', 'cancel', String(active)],
    ]) {
      const r = await cli(args, production);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('on production (environment "production") without confirmation');
    }
    const still = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${active}`);
    expect(still.body.order.status.value).toBe('active');
    const yes = await cli(['orders', 'pause', String(active), '--yes'], production);
    expect(yes.code, yes.stderr).toBe(0);
  });
});

describe('§4 the demo seed holds only what the emulator accepts', () => {
  it('every paused or suspended demo order is a subscription that orders resume accepts', async () => {
    const r = await cli(['orders', 'list', '--all', '-o', 'json']);
    const orders = JSON.parse(r.stdout) as {
      id: number;
      status: { value: string };
      order_type: { value: string };
    }[];
    const stopped = orders.filter((o) => ['paused', 'suspended'].includes(o.status.value));
    expect(stopped.length).toBeGreaterThan(3);
    for (const o of stopped) expect(o.order_type.value, `order ${o.id}`).toBe('subscription');
    const paused = stopped.filter((o) => o.status.value === 'paused').at(-1);
    const resume = await cli(['orders', 'resume', String(paused?.id)]);
    expect(resume.code, resume.stderr).toBe(0);
  });
});

describe('§4 emulator start says how to reach it as it was started', () => {
  it('names --port, the addresses and the development token; one log per port', async () => {
    const env = baseEnv();
    const ports: string[] = [];
    try {
      for (const port of ['0', '0']) {
        // Port 0 is refused by a detached start's health check; ask the system for free ones.
        const { createServer } = await import('node:net');
        const free = await new Promise<number>((ok) => {
          const s = createServer().listen(0, '127.0.0.1', () => {
            const p = (s.address() as { port: number }).port;
            s.close(() => ok(p));
          });
        });
        ports.push(String(free || port));
      }
      for (const port of ports) {
        const r = await runCli(['emulator', 'start', '--port', port, '--detach', '--seed', 'empty'], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(`Stop it with: billing emulator stop --port ${port}`);
        // One command makes an environment for it (issue 17 §4), not two address flags on every command.
        expect(r.stderr).toContain(`--emulator http://127.0.0.1:${port}`);
        expect(r.stderr).toContain(LOCAL_EMULATOR.token);
        const log = /log: (\S+)\./.exec(r.stderr)?.[1] ?? '';
        expect(log.endsWith(`emulator-${port}.log`)).toBe(true);
        expect(existsSync(log)).toBe(true);
      }
      expect(join(ports[0] ?? '')).not.toBe(ports[1]);
    } finally {
      for (const port of ports)
        await runCli(['emulator', 'stop', '--port', port], { env, timeoutMs: 10_000 });
    }
  });
});

// Issue 37: the support agent, round 3 — each "Seen" of §1, §2, §3 and §5 against the demo
// emulator over HTTP with the built billing as a process, and the seven tickets as journeys
// of at most four commands each (at 80 columns, as a person types them).

import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, freePort, parseNdjson, runCli, runFile } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { type McpServer, startMcp } from '../helpers/mcp.js';
import { runOnPty } from '../helpers/pty.js';

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

/**
 * A demo emulator of its own for each describe that moves its clock or its records. Its `cli`
 * runs the built CLI when `asProcess` is true (ticket 1's journey and §3, what a person sees),
 * else the same main() in-process (test/helpers/in-process.ts): what those tests check is what
 * the commands say and do, not the process.
 */
function demo(asProcess = false) {
  const box: { emu?: TestEmulator } = {};
  beforeAll(async () => {
    box.emu = await startTestEmulator({ seed: 'demo' });
  });
  afterAll(async () => {
    await box.emu?.close();
  });
  const emu = () => box.emu as TestEmulator;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    asProcess
      ? runCli(args, { env: emu().env({ COLUMNS: '80', ...env }), timeoutMs: 60_000 })
      : runInProcess(args, { env: emu().env({ COLUMNS: '80', ...env }) });
  /** What sets a test up or moves its clock, not what it checks: in-process either way. */
  const setup = (args: string[]) => runInProcess(args, { env: emu().env({ COLUMNS: '80' }) });
  /** The command's table as a person reads it (-o table, 80 columns). */
  const screen = async (args: string[]) => {
    const r = await cli([...args, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    return `${r.stdout}\n${r.stderr}`;
  };
  const api = (method: string, path: string, body?: unknown) => emulatorApi(emu().url, method, path, body);
  const advanceTo = async (iso: string) => {
    const r = await setup(['emulator', 'clock', 'advance', '--to', iso, '--port', new URL(emu().url).port]);
    expect(r.code, r.stderr).toBe(0);
  };
  return { emu, cli, setup, screen, api, advanceTo };
}

const P = '/api/v2/profiles/1';

/** Resolves once nothing listens on the port any more (the emulators a test started are gone). */
async function waitClosed(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (!open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function allOrders(cli: ReturnType<typeof demo>['setup']): Promise<Any[]> {
  const r = await cli(['orders', 'list', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as Any[];
}

const day = (iso: string) => iso.slice(0, 10);
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const addMonthsIso = (iso: string, n: number) => {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString();
};

describe('§1 what will be charged, said right', () => {
  const { cli, screen, api, advanceTo, emu } = demo();

  it('move my billing day: reschedule says the cycle stays, names the way to move the day, and following it charges once a month on the new day', async () => {
    const orders = await allOrders(cli);
    const order = orders.find(
      (o) => o.order_type.value === 'subscription' && o.status.value === 'active' && o.customer?.email,
    );
    expect(order).toBeDefined();
    const schedule = (await api('GET', `${P}/orders/${order.id}/scheduled_payments`)).body.scheduled_payments;
    const next = schedule.find((s: Any) => s.status === 'scheduled');
    const cycleDay = new Date(next.due_date).getUTCDate();
    // The 1st of the month after the next payment, as the customer asks.
    const due = new Date(next.due_date);
    const first = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const newDay = 1;
    expect(cycleDay).not.toBe(newDay);

    const moved = await cli(['schedule', 'reschedule', String(next.id), first]);
    expect(moved.code, moved.stderr).toBe(0);
    const keptCycle = addMonthsIso(next.due_date, 1);
    const days = Math.round(
      (Date.parse(keptCycle) - Date.parse(`${first}${next.due_date.slice(10)}`)) / 86_400_000,
    );
    expect(moved.stderr).toContain(
      `The billing cycle stays on the ${ordinal(cycleDay)}: the next payment after this one is ${day(keptCycle)}, ${days} days later.`,
    );
    expect(moved.stderr).toContain(
      `No request moves the billing day alone. To bill on the 1st from this payment on, start a new cycle at it: billing schedule update ${order.id} --interval MONTH`,
    );
    // Following the tool: the printed command, as printed.
    const line = moved.stderr.split('\n').find((l) => l.includes('billing schedule update')) as string;
    const printed = line.slice(line.indexOf('billing schedule update') + 'billing '.length).split(' ');
    const updated = await cli(printed);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toContain('on the 1st');

    // Three months on, every payment of the order after the move fell on the 1st, one a month.
    // To the day after the third: the cycle keeps the seed's time of day, which follows the wall clock.
    const third = Date.parse(`${addMonthsIso(`${first}T00:00:00.000Z`, 2).slice(0, 10)}T12:00:00Z`);
    await advanceTo(new Date(third + 86_400_000).toISOString());
    const payments = (await api('GET', `${P}/orders/${order.id}/payments`)).body.payments.filter(
      (p: Any) => p.kind === 'debit' && p.status === 'succeeded' && p.created_at > next.due_date.slice(0, 10),
    );
    expect(payments.map((p: Any) => new Date(p.created_at).getUTCDate())).toEqual([1, 1, 1]);
    const months = payments.map((p: Any) => p.created_at.slice(0, 7));
    expect(new Set(months).size).toBe(months.length);
  });

  it('paused until a restart date: orders get, orders schedule and the timeline say the restart and the first cycle after it, which the emulator then charges', async () => {
    const orders = await allOrders(cli);
    const paused = orders.find((o) => o.status.value === 'paused' && o.order_type.value === 'subscription');
    expect(paused).toBeDefined();
    const schedule = (await api('GET', `${P}/orders/${paused.id}/scheduled_payments`)).body
      .scheduled_payments;
    const next = schedule.find((s: Any) => s.status === 'scheduled');
    // A restart a month and a few days after the next payment: that cycle and the one after are skipped.
    const restart = day(new Date(Date.parse(next.due_date) + 33 * 86_400_000).toISOString());
    const resumed = await cli(['orders', 'resume', String(paused.id), '--restart-date', restart, '-y']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const expected = addMonthsIso(next.due_date, 2);
    const said = `Paused until ${restart}: nothing is charged before it. Next payment: 24.90 EUR on ${expected.slice(0, 10)} ${expected.slice(11, 16)} UTC, the first billing cycle from the restart.`;

    const got = await screen(['orders', 'get', String(paused.id)]);
    expect(got).toContain(said);
    expect(got).toMatch(new RegExp(`Restart date\\s+${restart} 00:00 UTC`));
    expect(got).not.toContain(`Next payment\nID`);
    const sched = await screen(['orders', 'schedule', String(paused.id)]);
    expect(sched).toContain(said);
    const timeline = await cli(['orders', 'timeline', String(paused.id), '-o', 'csv']);
    expect(timeline.stdout).toContain(`restart,`);
    expect(timeline.stdout).toContain(
      `${expected},next payment,24.90,EUR,the first billing cycle from the restart`,
    );

    await advanceTo(new Date(Date.parse(expected) + 3_600_000).toISOString());
    const charged = (await api('GET', `${P}/orders/${paused.id}/payments`)).body.payments.filter(
      (p: Any) => p.kind === 'debit' && p.created_at > next.due_date.slice(0, 10),
    );
    expect(charged.map((p: Any) => p.created_at)).toEqual([expected]);
    void emu;
  });
});

describe('§1 customers get says what a paused or suspended order will charge', () => {
  const { cli, screen } = demo();

  it('a paused order shows no date it will not be charged on, a suspended one says what it waits for', async () => {
    const orders = await allOrders(cli);
    const anna = orders.filter((o) => o.customer?.email === 'anna.schmidt@example.com');
    const paused = anna.find((o) => o.status.value === 'paused' && o.order_type.value === 'subscription');
    const suspended = anna.find((o) => o.status.value === 'suspended');
    expect(paused && suspended).toBeTruthy();
    const got = await screen(['customers', 'get', String(anna[0].customer_id)]);
    const row = (id: number) => got.split('\n').find((l) => l.startsWith(`${id} `)) as string;
    expect(row(paused.id)).toContain('none while paused');
    expect(row(paused.id)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(row(suspended.id)).toContain('none until the failed payment is collected');
    const sched = await screen(['orders', 'schedule', String(suspended.id)]);
    expect(sched).toMatch(
      /Suspended: nothing is charged until the failed scheduled payment \d+ \(24\.90 EUR\) is collected/,
    );
  });
});

describe('§2 sums, ranges and the accountant’s csv', () => {
  const { cli, api } = demo();
  let payments: Any[] = [];
  let orders: Any[] = [];
  beforeAll(async () => {
    orders = await allOrders(cli);
    payments = [];
    for (const o of orders) {
      for (const p of (await api('GET', `${P}/orders/${o.id}/payments`)).body.payments)
        payments.push({ ...p, order: o });
    }
  });
  const now = new Date();
  const lastMonth: [number, number] = [
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1),
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
  ];
  const inLastMonth = (p: Any) =>
    Date.parse(p.created_at) >= lastMonth[0] && Date.parse(p.created_at) < lastMonth[1];
  const ids = (r: { stdout: string }) =>
    (JSON.parse(r.stdout) as Any[]).map((p) => p.id).sort((a, b) => a - b);

  it('payments list --min-amount and --max-amount, as billing help fields payments promises', async () => {
    const fields = await cli(['help', 'fields', 'payments']);
    expect(fields.stdout).toContain('--min-amount');
    const r = await cli(['payments', 'list', '--min-amount', '50', '--max-amount', '200', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const want = payments.filter((p) => Number(p.amount) >= 50 && Number(p.amount) <= 200).map((p) => p.id);
    expect(ids(r)).toEqual(want.sort((a, b) => a - b));
    expect(want.length).toBeGreaterThan(1);
  });

  it('--since last-month --until last-month is all of last month, as --during last-month is', async () => {
    const want = payments
      .filter(inLastMonth)
      .map((p) => p.id)
      .sort((a, b) => a - b);
    expect(want.length).toBeGreaterThan(1);
    const both = await cli([
      'payments',
      'list',
      '--since',
      'last-month',
      '--until',
      'last-month',
      '-o',
      'json',
    ]);
    expect(both.code, both.stderr).toBe(0);
    expect(ids(both)).toEqual(want);
    const during = await cli(['payments', 'list', '--during', 'last-month', '-o', 'json']);
    expect(ids(during)).toEqual(want);
    const month = new Date(lastMonth[0]).toISOString().slice(0, 7);
    expect(ids(await cli(['payments', 'list', '--during', month, '-o', 'json']))).toEqual(want);
    const help = await cli(['help', 'dates']);
    expect(help.stdout).toContain('--until last-month keeps all of last month');
  });

  it('--total: what was taken by card last month, per currency, as a footer, a json record, an ndjson line and beside csv', async () => {
    const debits = payments.filter((p) => inLastMonth(p) && p.kind === 'debit');
    const paid = new Map<string, number>();
    for (const p of debits.filter((p) => p.status === 'succeeded'))
      paid.set(p.currency, (paid.get(p.currency) ?? 0) + Math.round(Number(p.amount) * 100));
    const args = ['payments', 'list', '--during', 'last-month', '--kind', 'debit', '--total'];
    const table = await cli([...args, '-o', 'table']);
    expect(table.stdout).toContain(`Total: ${debits.length} payments.`);
    for (const [c, minor] of paid)
      expect(table.stdout).toContain(`${c}: paid ${(minor / 100).toFixed(2)} ${c}`);
    const json = JSON.parse((await cli([...args, '-o', 'json'])).stdout);
    expect(json.payments).toHaveLength(debits.length);
    expect(json.total.count).toBe(debits.length);
    for (const [c, minor] of paid) expect(json.total.sums[c].paid).toBe((minor / 100).toFixed(2));
    const lines = parseNdjson((await cli([...args, '-o', 'ndjson'])).stdout) as Any[];
    expect(lines).toHaveLength(debits.length + 1);
    expect(Object.keys(lines.at(-1))).toEqual(['total']);
    const csv = await cli([...args, '-o', 'csv']);
    expect(csv.stdout.trim().split('\n')).toHaveLength(debits.length + 1);
    expect(csv.stderr).toContain(`Total: ${debits.length} payments.`);
  });

  it('how much did James pay this month: --total beside his payments', async () => {
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const his = payments.filter(
      (p) => p.order.customer?.email === 'james.obrien@example.com' && Date.parse(p.created_at) >= start,
    );
    const r = await cli([
      'payments',
      'list',
      '--email',
      'james.obrien@example.com',
      '--during',
      'this-month',
      '--total',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.total.count).toBe(his.length);
    const net = his
      .filter((p) => p.status === 'succeeded' && p.currency === 'EUR')
      .reduce(
        (s, p) =>
          s +
          (p.kind === 'refund' ? -1 : ['debit', 'capture'].includes(p.kind) ? 1 : 0) *
            Math.round(Number(p.amount) * 100),
        0,
      );
    expect(got.total.sums.EUR.net).toBe((net / 100).toFixed(2));
  });

  it('active subscriptions and monthly revenue: orders list --total says the count and the monthly recurring amount', async () => {
    const active = orders.filter((o) => o.order_type.value === 'subscription' && o.status.value === 'active');
    expect(active.length).toBeGreaterThan(1);
    const r = await cli([
      'orders',
      'list',
      '--type',
      'subscription',
      '--status',
      'active',
      '--total',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { total } = JSON.parse(r.stdout);
    expect(total.count).toBe(active.length);
    // The demo's subscriptions are monthly: each adds its next payment.
    let minor = 0;
    for (const o of active) {
      const s = (await api('GET', `${P}/orders/${o.id}/scheduled_payments`)).body.scheduled_payments;
      minor += Math.round(Number(s.find((e: Any) => e.status === 'scheduled').amount) * 100);
    }
    expect(total.monthly_recurring.EUR).toEqual({
      subscriptions: active.length,
      amount: (minor / 100).toFixed(2),
    });
    const table = await cli([
      'orders',
      'list',
      '--type',
      'subscription',
      '--status',
      'active',
      '--total',
      '-o',
      'table',
    ]);
    expect(table.stdout).toContain(
      `Monthly recurring: ${(minor / 100).toFixed(2)} EUR from ${active.length} active subscriptions`,
    );
  });

  it("the accountant's csv: --expand order,customer adds the invoice id, the customer's name and e-mail", async () => {
    const r = await cli([
      'payments',
      'list',
      '--during',
      'last-month',
      '--kind',
      'refund,debit',
      '--expand',
      'order,customer',
      '-o',
      'csv',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toBe('id,order_id,kind,status,amount,currency,created,invoice_id,customer,email');
    const byId = new Map(payments.map((p) => [String(p.id), p]));
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      const cells = row.split(',');
      const p = byId.get(cells[0] as string);
      expect(cells[7]).toBe(p.order.merchant_invoice_id);
      expect(cells.at(-1)).toBe(p.order.customer.email);
    }
  });

  it('billing help finds them by total, sum, revenue, accounting, export', async () => {
    for (const word of ['total', 'sum', 'revenue', 'accounting', 'export']) {
      const r = await cli(['help', word]);
      expect(r.code, `${word}: ${r.stderr}`).toBe(0);
      expect(r.stdout, word).toContain('billing payments list');
    }
  });
});

describe('§5 the demo twice at once', () => {
  /** `emulator start --detach` on one port, twice at the same moment, as two clones' demos do. */
  it('two detached starts on one port at once: each one that says running names its own process, the other fails saying the port is taken (repeated)', async () => {
    const port = await freePort();
    for (let round = 0; round < 4; round++) {
      const env = baseEnv();
      const start = () =>
        runCli(['emulator', 'start', '--detach', '--seed', 'empty', '--port', String(port)], {
          env,
          timeoutMs: 60_000,
        });
      const both = await Promise.all([start(), start()]);
      const running = both.filter((r) => r.code === 0);
      try {
        expect(running.length, both.map((r) => r.stderr).join('\n---\n')).toBeGreaterThanOrEqual(1);
        const urls = running.map((r) => r.stdout.trim());
        expect(new Set(urls).size, 'two starts never report one emulator').toBe(urls.length);
        for (const r of running) {
          const pid = Number(/background \(pid (\d+)\)/.exec(r.stderr)?.[1]);
          const status = await adminFetch(`${r.stdout.trim()}/__emulator/status`);
          expect(
            ((await status.json()) as { pid?: number }).pid,
            'the emulator it reports is its own process',
          ).toBe(pid);
        }
        for (const r of both.filter((r) => r.code !== 0)) {
          expect(r.code).toBe(2);
          expect(r.stderr).toMatch(
            new RegExp(
              `(port ${port} is already in use|an emulator already answers at http://127.0.0.1:${port})`,
            ),
          );
        }
      } finally {
        for (const r of running) {
          const p = Number(/background \(pid (\d+)\)/.exec(r.stderr)?.[1]);
          if (p) {
            try {
              process.kill(p, 'SIGTERM');
            } catch {}
          }
        }
        await waitClosed(port);
      }
    }
  });

  it("the demo's printed next commands run as printed (npx billing …), with billing not on PATH", async () => {
    const env = baseEnv({
      PATH: process.env.PATH?.split(':')
        .filter((d) => !d.includes('wt-') && !d.endsWith('node_modules/.bin'))
        .join(':'),
    });
    const port = await freePort();
    const demoRun = await runFile(
      process.execPath,
      [resolve(import.meta.dirname, '../../scripts/demo.mjs'), '--port', String(port)],
      {
        env,
        timeoutMs: 60_000,
        cwd: resolve(import.meta.dirname, '../..'),
      },
    );
    try {
      expect(demoRun.code, demoRun.stderr).toBe(0);
      const printed = demoRun.stderr
        .split('\n')
        .flatMap((l) =>
          [...l.matchAll(/(?:^|\s|: )((?:npx |\.\/bin\/)?billing [^\n]*?)(?=$| \(or)/g)].map(
            (m) => m[1] as string,
          ),
        )
        .filter((c) => !c.includes('<'));
      expect(printed.length).toBeGreaterThan(2);
      for (const command of printed)
        expect(command, 'every printed command starts with npx').toMatch(/^npx billing /);
      // The last one stops it: run as printed, by the shell, from the checkout.
      const stop = printed.find((c) => c.includes('emulator stop')) as string;
      const shell = spawnSync('sh', ['-c', stop], {
        env: env as NodeJS.ProcessEnv,
        cwd: resolve(import.meta.dirname, '../..'),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(shell.status, shell.stderr).toBe(0);
      expect(shell.stderr).toContain('stopped');
    } finally {
      await waitClosed(port);
    }
  });
});

describe('§5 an assistant told the whole truth (MCP)', () => {
  const { emu, cli, api } = demo();
  let mcp: McpServer;
  beforeAll(async () => {
    mcp = await startMcp(['mcp'], emu().env());
  });
  afterAll(async () => {
    await mcp?.client.close().catch(() => {});
  });
  const call = async (name: string, args: Record<string, unknown>): Promise<Any> =>
    mcp.client.callTool({ name, arguments: args });

  it('list_orders says how many it returns and that more may match, never "complete" when it stopped early', async () => {
    const active = (await allOrders(cli)).filter((o) => o.status.value === 'active');
    expect(active.length).toBeGreaterThan(20);
    const got = (await call('list_orders', { status: ['active'] })).structuredContent;
    expect(got.records).toHaveLength(20);
    expect(got.returned).toBe(20);
    expect(got.more_may_match).toBe(true);
    expect(got.next_cursor).toBe('20');
    const notes = (got.notes as string[]).join('\n');
    expect(notes).not.toContain('complete');
    expect(notes).toContain('20 matched, then stopped at --limit 20: more may match');
  });

  it('search: the count the notes give is the count returned', async () => {
    const got = (await call('search', { text: 'example.com' })).structuredContent;
    const best = /Showing the best (\d+) of (\d+)/.exec((got.notes as string[]).join('\n'));
    expect(best, JSON.stringify(got.notes)).not.toBeNull();
    expect(Number(best?.[1])).toBe(got.records.length);
    expect(got.returned).toBe(got.records.length);
  });

  it('get_payment has what payments get shows: refunded and left to refund', async () => {
    // A debit refunded in part, through the service.
    const orders = await allOrders(cli);
    let debit: Any;
    for (const o of orders.filter((o) => o.status.value === 'active')) {
      const ps = (await api('GET', `${P}/orders/${o.id}/payments`)).body.payments;
      debit = ps.find((p: Any) => p.kind === 'debit' && p.status === 'succeeded' && Number(p.amount) > 10);
      if (debit) break;
    }
    const refund = await cli(['payments', 'refund', String(debit.id), '--amount', '5.00', '-y']);
    expect(refund.code, refund.stderr).toBe(0);
    const left = (Math.round(Number(debit.amount) * 100) - 500) / 100;
    const answer = await call('get_payment', { payment_id: debit.id });
    const got = answer.structuredContent;
    expect(answer.isError, JSON.stringify(answer.content)).not.toBe(true);
    expect(got.refunded).toBe('5.00');
    expect(got.left_to_refund).toBe(left.toFixed(2));
    expect(got.refunds).toHaveLength(1);
    const person = await cli(['payments', 'get', String(debit.id), '-o', 'table']);
    expect(person.stdout).toMatch(new RegExp(`Left to refund\\s+${left.toFixed(2)}`));
  });

  it('a customer given as an e-mail is pointed to email', async () => {
    const got = await call('list_payments', { customer: 'james.obrien@example.com' });
    expect(got.isError).toBe(true);
    expect(got.structuredContent.error.hint).toContain(
      'with --email "james.obrien@example.com" (the tool argument email)',
    );
  });
});

/**
 * The seven tickets, each as a person types it at 80 columns (-o table, what a terminal
 * shows): at most four commands, none a dead end (each exits 0 and the next one's id or
 * date is read off what the last printed), and the answer right by the emulator's rules.
 */
function ticketDesk(asProcess = false) {
  const d = demo(asProcess);
  const person = async (commands: string[][], args: string[]) => {
    commands.push(args);
    const r = await d.cli([...args, ...(args.includes('-o') ? [] : ['-o', 'table'])]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return `${r.stdout}\n${r.stderr}`;
  };
  return { ...d, person };
}

describe('ticket 1 of round 3 (its own emulator: the clock moves)', () => {
  const { api, advanceTo, person } = ticketDesk(true);

  it('1. "move my payments from the 25th to the 1st, from January" (anna.schmidt@example.com): 4 commands, then one payment a month on the 1st', async () => {
    const commands: string[][] = [];
    const subs = await person(commands, [
      'orders',
      'list',
      '--email',
      'anna.schmidt@example.com',
      '--type',
      'subscription',
      '--status',
      'active',
    ]);
    const orderId = /^(\d+)\s+INV-/m.exec(subs)?.[1] as string;
    const schedule = await person(commands, ['orders', 'schedule', orderId]);
    const next = /^next\s+(\d+)\s+(\d{4}-\d{2}-\d{2})/m.exec(schedule);
    expect(next, schedule).not.toBeNull();
    const [entryId, due] = [next?.[1] as string, next?.[2] as string];
    const dueDay = new Date(`${due}T00:00:00Z`);
    const first = new Date(Date.UTC(dueDay.getUTCFullYear(), dueDay.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const moved = await person(commands, ['schedule', 'reschedule', entryId, first]);
    expect(moved).toContain(`The billing cycle stays on the ${ordinal(dueDay.getUTCDate())}`);
    const advice = /billing (schedule update \d+ --interval MONTH)/.exec(moved)?.[1] as string;
    const updated = await person(commands, advice.split(' '));
    expect(updated).toContain('every month on the 1st');
    expect(commands.length).toBeLessThanOrEqual(4);
    const second = addMonthsIso(`${first}T00:00:00.000Z`, 1).slice(0, 10);
    // The day after: the cycle keeps the seed's time of day, which follows the wall clock (any hour).
    await advanceTo(new Date(Date.parse(`${second}T12:00:00Z`) + 86_400_000).toISOString());
    const paid = (await api('GET', `${P}/orders/${orderId}/payments`)).body.payments
      .filter((p: Any) => p.kind === 'debit' && p.status === 'succeeded' && p.created_at >= first)
      .map((p: Any) => p.created_at.slice(0, 10));
    expect(paid).toEqual([first, second]);
  });
});

describe('tickets 2 to 7 of round 3', () => {
  const { cli, api, person } = ticketDesk();

  it('2. "my refund never arrived" (james.obrien@example.com): the refund, its date and its status in 1 command', async () => {
    // Last week's refund of one of his two charges for INV-000174 (made by the tool, as support did).
    const charged = (await api('GET', `${P}/orders/174/payments`)).body.payments.filter(
      (p: Any) => p.kind === 'debit' && p.status === 'succeeded',
    );
    const made = await cli(['payments', 'refund', String(charged.at(-1).id), '-y']);
    expect(made.code, made.stderr).toBe(0);
    const commands: string[][] = [];
    const refunds = await person(commands, [
      'payments',
      'list',
      '--email',
      'james.obrien@example.com',
      '--kind',
      'refund',
    ]);
    expect(refunds).toMatch(
      new RegExp(`^\\d+\\s+174\\s+refund\\s+succeeded\\s+${charged.at(-1).amount} EUR`, 'm'),
    );
    expect(commands.length).toBeLessThanOrEqual(4);
  });

  it('3. "my order is stuck in pending" (INV-000199): no link was sent; one is, in 2 commands', async () => {
    const commands: string[][] = [];
    const timeline = await person(commands, ['orders', 'timeline', 'INV-000199']);
    expect(timeline).toContain('status pending');
    expect(timeline).not.toContain('link sent');
    const sent = await person(commands, ['links', 'email', 'INV-000199']);
    expect(sent).toContain('marie.dubois@example.com');
    expect(commands.length).toBeLessThanOrEqual(4);
  });

  it('4. "refund the espresso machine of INV-000200, keep the beans": the line and the payment, then its refund, in 2 commands', async () => {
    const commands: string[][] = [];
    const order = await person(commands, ['orders', 'get', 'INV-000200']);
    const line = /Name\s+Espresso Machine[\s\S]*?Subtotal amount\s+([\d.]+)/.exec(order)?.[1] as string;
    const payment = /^(\d+)\s+debit\s+succeeded/m.exec(order)?.[1] as string;
    expect(line).toBe('478.80');
    const refunded = await person(commands, ['payments', 'refund', payment, '--amount', line, '-y']);
    expect(refunded).toContain(`478.80 EUR`);
    const after = (await api('GET', `${P}/orders/200/payments`)).body.payments;
    expect(after.filter((p: Any) => p.kind === 'refund').map((p: Any) => p.amount)).toEqual(['478.80']);
    expect(commands.length).toBeLessThanOrEqual(4);
  });

  it("5. the accountant's month-end: last month's payments with invoice and customer, and the sums, in 1 command", async () => {
    const commands: string[][] = [];
    const out = await person(commands, [
      'payments',
      'list',
      '--during',
      'last-month',
      '--expand',
      'order,customer',
      '--total',
      '-o',
      'csv',
    ]);
    const [header] = out.split('\n');
    expect(header).toBe('id,order_id,kind,status,amount,currency,created,invoice_id,customer,email');
    expect(out).toMatch(/^Total: \d+ payments\.$/m);
    expect(out).toMatch(/^EUR: paid [\d.]+ EUR/m);
    expect(commands.length).toBeLessThanOrEqual(4);
  });

  it('6. "I paused yesterday, don\'t charge me on the next date, start again on the 1st in two months" (Sofía García): the restart and the first payment after it, in 3 commands', async () => {
    const commands: string[][] = [];
    const paused = await person(commands, ['orders', 'list', '--name', 'garcía', '--status', 'paused']);
    const orderId = /^(\d+)\s+INV-/m.exec(paused)?.[1] as string;
    const now = new Date();
    const restart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1))
      .toISOString()
      .slice(0, 10);
    const resumed = await person(commands, ['orders', 'resume', orderId, '--restart-date', restart, '-y']);
    expect(resumed).toContain(`It stays paused until ${restart}`);
    const schedule = await person(commands, ['orders', 'schedule', orderId]);
    expect(schedule).toContain(
      `Paused until ${restart}: nothing is charged before it. Next payment: 24.90 EUR on`,
    );
    const entries = (await api('GET', `${P}/orders/${orderId}/scheduled_payments`)).body.scheduled_payments;
    const cycle = new Date(entries.find((e: Any) => e.status === 'scheduled').due_date);
    let at = cycle.toISOString();
    for (let n = 1; at < `${restart}T00:00:00.000Z`; n++) at = addMonthsIso(cycle.toISOString(), n);
    expect(schedule).toContain(`Next payment: 24.90 EUR on ${at.slice(0, 10)} ${at.slice(11, 16)} UTC`);
    expect(commands.length).toBeLessThanOrEqual(4);
  });

  it('7. "how many active subscriptions, and what monthly revenue": 1 command', async () => {
    const commands: string[][] = [];
    const out = await person(commands, [
      'orders',
      'list',
      '--type',
      'subscription',
      '--status',
      'active',
      '--total',
    ]);
    const active = (await allOrders(cli)).filter(
      (o) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    expect(out).toContain(`Total: ${active.length} orders`);
    expect(out).toMatch(
      new RegExp(`Monthly recurring: [\\d.]+ EUR from ${active.length} active subscriptions`),
    );
    expect(commands.length).toBeLessThanOrEqual(4);
  });
});

describe('§3 small things a person sees', () => {
  const { emu, cli, setup, screen } = demo(true);
  /** SGR colour codes (foreground, background, 256 and true colour): what NO_COLOR forbids. */
  const COLOUR = /\x1b\[(?:\d+;)*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;\d+)*m/;

  it('NO_COLOR and FORCE_COLOR=0 stop every colour on a real terminal, the spinner included; --no-color did already', async () => {
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }]) {
      const term = runOnPty(['orders', 'list', '--status', 'active', '--all'], {
        env: emu().env(env),
        cols: 80,
        rows: 50,
        timeoutMs: 60_000,
      });
      const done = await term.exited;
      expect(done.code, done.text).toBe(0);
      // The spinner ran (its frames are on screen) and nothing was coloured.
      expect(done.raw).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      expect(done.raw, JSON.stringify(env)).not.toMatch(COLOUR);
    }
    // Without them, the same run is coloured: the check above can fail.
    const coloured = await runOnPty(['orders', 'list', '--status', 'active', '--all'], {
      env: emu().env(),
      cols: 80,
      rows: 50,
      timeoutMs: 60_000,
    }).exited;
    expect(coloured.raw).toMatch(COLOUR);
  });

  it('at 80 columns the timeline shows its dates whole, and help lines are wrapped, not cut', async () => {
    const timeline = await screen(['orders', 'timeline', '62']);
    const rows = timeline.split('\n').filter((l) => /^\d{4}-/.test(l));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC {2}/);
    for (const word of ['reschedule', 'refund']) {
      const help = await cli(['help', word]);
      expect(help.stdout, word).not.toContain('…');
      for (const line of help.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });

  it("every column header is a word: orders get heads a refund's parent payment PARENT, not OF", async () => {
    const order = (await allOrders(setup)).find(
      (o) => o.status.value === 'active' && o.order_type.value === 'single_payment',
    );
    const pay = (await emulatorApi(emu().url, 'GET', `${P}/orders/${order.id}/payments`)).body.payments[0];
    expect((await setup(['payments', 'refund', String(pay.id), '--amount', '1.00', '-y'])).code).toBe(0);
    const got = await screen(['orders', 'get', String(order.id)]);
    const head = got.split('\n').find((l) => l.startsWith('ID ') && l.includes('KIND')) as string;
    expect(head).toContain('PARENT');
    expect(head.split(/\s{2,}/)).not.toContain('OF');
  });

  it("the csv guard names its opt-out: billing help output and the csv format's help say --csv-raw", async () => {
    const output = await cli(['help', 'output']);
    expect(output.stdout).toContain('--csv-raw writes every cell as it is');
    const formats = await cli(['help', 'formatting']);
    expect(formats.stdout).toMatch(/csv[\s\S]*unless\s+--csv-raw/);
    const raw = await cli(['customers', 'list', '-o', 'csv', '--csv-raw']);
    expect(raw.stdout).toContain(',+44 20 7946 0107,');
    const guarded = await cli(['customers', 'list', '-o', 'csv']);
    expect(guarded.stdout).toContain(",'+44 20 7946 0107,");
  });
});

// Issue 34 §3: every command that changes what a customer is charged or told, or the service's
// records, is guarded on production — derived from its description's `moves`. The production
// double stands in front of an emulator, records every request and forwards it; each declared
// command is run on it as a script would (no terminal, no --yes) and must send no write; with
// --dry-run it sends none either; with --yes it does (so the refusal is of a real write).
// One write command (PROCESS_CASE) and one reader run the built CLI as a process for every
// rule (the exit code, stderr and stdout of the real process); the others run src/cli.ts's
// main() in this process (test/helpers/in-process.ts) with the same environment, input (none)
// and no terminal, against the same double over real HTTP: what they check is each command's
// own guard, not the process (docs/decisions.md, "Issue 35 §5, round 5: the money and safety files").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedCommands } from '../../scripts/commands-reference.js';
import { type FakeService, startService } from '../api/fake-service.js';
import { createCustomer, createProduct } from '../emulator/helpers.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runsUntilStopped, shellWords } from '../helpers/readme.js';
import { seedPayments, waitFor } from '../payments/helpers.js';
import { customerWithCard, liveSubscription, plan } from '../recurring/helpers.js';

let emu: TestEmulator;
let double: FakeService;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  double = await startService(async (req, res) => {
    const answer = await fetch(`${emu.url}${req.url}`, {
      method: req.method,
      headers: {
        authorization: String(req.headers.authorization ?? ''),
        'content-type': 'application/json',
      },
      body: ['GET', 'HEAD'].includes(req.method) ? undefined : req.body,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
});
afterAll(async () => {
  await Promise.all([double?.close(), emu?.close()]);
});

/** The emulator, seen through the double as the built-in production environment. */
const production = () =>
  emu.env({
    BILLING_ENV: 'production',
    BILLING_BASE_URL: double.baseUrl,
    BILLING_BASE_URL_V1: double.baseUrlV1,
    BILLING_GATEWAY_URL: `${emu.url}/gateway`,
    BILLING_WEBHOOK_SECRET: 'whsec_guard_test',
  });

const WRITE = /^(POST|PUT|PATCH|DELETE)$/;

/** The writes the double received since `before`. */
const writesSince = (before: number) =>
  double.received
    .slice(before)
    .filter((q) => WRITE.test(q.method))
    .map((q) => `${q.method} ${q.path}`);

/** Runs the command on the double, as a process or in this one; the writes it sent there. */
async function run(args: string[], how: 'process' | 'in-process' = 'process') {
  const before = double.received.length;
  const r =
    how === 'process'
      ? await runCli(args, { env: production(), timeoutMs: 30_000 })
      : await runInProcess(args, { env: production() });
  return { ...r, writes: writesSince(before) };
}

/** The write command whose three checks run the built CLI as a process: a move of money. */
const PROCESS_CASE = 'payments refund';

/** Starts a command that serves until stopped (checkout open); stops it at its first write, or after 30 s. */
async function runUntilWrite(args: string[]) {
  const before = double.received.length;
  const started = spawnCli(args, production(), 30_000);
  let ended = false;
  void started.done.then(() => {
    ended = true;
  });
  await waitFor(() => ended || writesSince(before).length > 0);
  started.child.kill('SIGKILL');
  return { ...(await started.done), writes: writesSince(before) };
}

async function draftOrder(invoice: string): Promise<number> {
  const single = await createProduct(emu.emulator, 1, { name: invoice });
  const res = await emulatorApi(emu.url, 'POST', '/api/v2/profiles/1/orders', {
    order: {
      currency: 'EUR',
      customer_id: 1,
      invoice_id: invoice,
      order_products: [{ product_id: single, qty: 1 }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.order.id;
}

async function scheduled(orderId: number): Promise<string[]> {
  const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${orderId}/scheduled_payments`);
  return res.body.scheduled_payments
    .filter((e: { status: string }) => e.status === 'scheduled')
    .map((e: { id: number }) => String(e.id));
}

async function subscription(): Promise<{ orderId: number; event: string }> {
  const live = await liveSubscription(emu.emulator, { start: '31/01/2030 09:00' });
  return { orderId: live.orderId, event: (await scheduled(live.orderId))[0] as string };
}

/** Each command that writes, on a record of its own: its arguments after its words. */
const WRITES: Record<string, () => Promise<(string | number)[]>> = {
  'orders create': async () => [
    '--customer',
    1,
    '--product',
    await createProduct(emu.emulator, 1, { name: 'G-CREATE' }),
    '--currency',
    'EUR',
    '--invoice-id',
    `G-CREATE-${Date.now()}`,
  ],
  'orders subscribe': async () => {
    const customer = await customerWithCard(emu.emulator);
    const product = await plan(emu.emulator, '20.00');
    return [
      '--customer',
      customer,
      '--product',
      product,
      '--currency',
      'EUR',
      '--start-date',
      '31/01/2030 09:00',
    ];
  },
  'orders pay': async () => [await draftOrder(`G-PAY-${Date.now()}`)],
  'orders pause': async () => [(await subscription()).orderId],
  'orders resume': async () => {
    const { orderId } = await subscription();
    await emulatorApi(emu.url, 'POST', `/api/v2/profiles/1/orders/${orderId}/pause`);
    return [orderId];
  },
  'orders cancel': async () => [(await subscription()).orderId],
  'customers create': async () => ['--first-name', 'Ada', '--last-name', 'Byron'],
  'customers delete': async () => [await createCustomer(emu.emulator)],
  'products create': async () => ['--name', 'Mug', '--price', '9.50', '--currency', 'EUR'],
  'products delete': async () => [await createProduct(emu.emulator)],
  'payments capture': async () => [
    (await seedPayments(emu.url, 1, { preauth: true, amount: '50.00' })).payments[0] as number,
  ],
  'payments reverse': async () => [
    (await seedPayments(emu.url, 1, { preauth: true, amount: '50.00' })).payments[0] as number,
  ],
  'payments refund': async () => [
    (await seedPayments(emu.url, 1, { amount: '30.00' })).payments[0] as number,
    '--amount',
    '1',
  ],
  'schedule execute': async () => [(await subscription()).event],
  'schedule skip': async () => [(await subscription()).event],
  'schedule reschedule': async () => [(await subscription()).event, '2031-05-03'],
  'schedule merge': async () => {
    // Merging needs two open: a declined charge and the next cycle's event it made way for.
    const live = await liveSubscription(emu.emulator, { start: '31/01/2030 09:00' });
    const s = await subscription();
    await adminFetch(`${emu.url}/__emulator/declines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: live.customerId, decline: 'soft', times: 1 }),
    });
    void s;
    const first = (await scheduled(live.orderId))[0] as string;
    await emulatorApi(emu.url, 'POST', `/api/v2/profiles/1/scheduled_payments/${first}/execute`);
    const next = (await scheduled(live.orderId)).find((e) => e !== first) as string;
    return [live.orderId, first, next];
  },
  'schedule update': async () => [(await subscription()).orderId, '--amount', '1.00'],
  'checkout renew': async () => [await draftOrder(`G-RENEW-${Date.now()}`)],
  'checkout snippet': async () => [await draftOrder(`G-SNIP-${Date.now()}`), '--renew'],
  'checkout open': async () => [await draftOrder(`G-OPEN-${Date.now()}`), '--no-browser'],
  'links email': async () => [await draftOrder(`G-EMAIL-${Date.now()}`)],
  'links sms': async () => [await draftOrder(`G-SMS-${Date.now()}`)],
  'links url': async () => [await draftOrder(`G-URL-${Date.now()}`)],
  api: async () => ['POST', `/orders/${await draftOrder(`G-API-${Date.now()}`)}/send_email_link`],
};

/** Declared to write but not run here, and why (each has its own test). */
const NOT_RUN: Record<string, string> = {
  mcp: 'a server: on production its writes need --allow-live at start (test/mcp/mcp.test.ts); see below',
  'webhooks trigger':
    'it writes to the service only on an emulator; elsewhere it posts a synthetic event to your own app; see below',
};

const commands = await describedCommands();
const writing = commands.filter((c) => c.verb.moves !== 'none').map((c) => c.path.join(' '));

describe('issue 34 §3: a command that writes on production is confirmed, or sends no write', () => {
  it('every command declared to write has a case here (a new one fails until it has)', () => {
    const missing = writing.filter((name) => !(name in WRITES) && !(name in NOT_RUN));
    expect(missing).toEqual([]);
    const stale = Object.keys(WRITES).filter((name) => !writing.includes(name));
    expect(stale, 'cases of commands declared moves: none').toEqual([]);
  });

  it.each(Object.keys(WRITES))(
    '%s: refused without --yes and a terminal, nothing written; --dry-run writes nothing; --yes writes',
    async (name) => {
      const words = name.split(' ');
      const args = (await WRITES[name]?.())?.map(String) ?? [];
      const how = name === PROCESS_CASE ? 'process' : 'in-process';
      const refused = await run([...words, ...args], how);
      expect(refused.writes, refused.stderr).toEqual([]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(
        /refusing to .* on production \(environment "production"\) without confirmation/,
      );
      expect(refused.stderr).toContain('--yes');

      const dry = await run([...words, ...args, '--dry-run'], how);
      expect(dry.writes, dry.stderr).toEqual([]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/(POST|PATCH|DELETE|PUT) \S*\/api\/v[12]\//);

      // Confirmed, it writes (a server, checkout open, is stopped once it has written; webhooks
      // trigger then posts to an app that is not running here): the refusal above was of a real write.
      // checkout open runs as a process, since it is stopped by a kill.
      const confirmed = [...words, ...args, '--yes'];
      const yes = name === 'checkout open' ? await runUntilWrite(confirmed) : await run(confirmed, how);
      expect(yes.writes.length, `${name} --yes sent no write`).toBeGreaterThan(0);
    },
  );

  it('mcp: writes allowed on production only with --allow-live; nothing is sent without it', async () => {
    const r = await run(['mcp', '--allow', 'lifecycle']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-live');
    expect(r.writes).toEqual([]);
  });

  it('webhooks trigger on production sends the service no write (only a synthetic event to the app)', async () => {
    const r = await run(['webhooks', 'trigger', 'order.active']);
    expect(r.writes).toEqual([]);
    expect(r.stderr).toContain('synthetic');
  });

  // The commands that change nothing at the service: their first example, on the double, writes
  // nothing (the client refuses a write from a command declared moves: none before sending it).
  // The first that is run runs as a process, the others in this one.
  const readers = commands
    .filter((c) => c.verb.moves === 'none' && c.path[0] !== 'emulator')
    .map((c) => {
      const example = (c.verb.examples ?? [])
        .map((e) => shellWords(e.replace(/\s+#.*$/, '')))
        .find(
          (w) =>
            w[0] === 'billing' && c.path.every((p, i) => w[i + 1] === p) && !w.some((x) => /[|<>$…]/.test(x)),
        );
      const args = example?.slice(1).filter((w) => w !== '--env' && w !== 'local') ?? c.path;
      return { name: c.path.join(' '), args, skip: runsUntilStopped(args) || args.includes('--install') };
    });
  const readerProcess = readers.find((r) => !r.skip)?.name;
  it.each(readers.map((r) => [r.name, r] as const))(
    '%s (moves: none) sends no write',
    async (name, { args, skip }) => {
      if (skip) return;
      const r = await run(args, name === readerProcess ? 'process' : 'in-process');
      expect(r.writes, r.stderr).toEqual([]);
      expect(r.stderr).not.toContain('declares that it changes nothing');
    },
  );
});

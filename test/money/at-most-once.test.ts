// Issue 33: a money move whose outcome is unknown is never sent again unasked; a move is
// recognised by its own identity (Idempotency-Key, kept in the journal's `started` record)
// or by the baseline; the service's record is the truth across files, folders and journals.
// Service doubles: the emulator's `late` fault (a record that shows late, or never within the
// test: 10 min), `slow` (an answer that comes late), and a proxy that drops Idempotency-Key
// (a service that ignores it). Delays are a few seconds where the rule does not need 12 s.
// The first test and the runs that race for a lock run the built CLI; the other runs check the
// rules' logic and run src/cli.ts's main() in this process (test/helpers/in-process.ts;
// docs/decisions.md, "Issue 35 §5, round 5: the money and safety files").

import { copyFileSync, linkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { holdRefunds, recordsShown } from '../helpers/money-runs.js';
import { journalLines, refundsOf, seedPayments, waitFor } from '../payments/helpers.js';

const NEVER = 600_000;

/** A run in this process, with runCli's options (its deadline is the test's). */
const run = (args: string[], o: { env: Record<string, string | undefined>; timeoutMs?: number }) =>
  runInProcess(args, { env: o.env });
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

async function service(faults: unknown[] = []): Promise<TestEmulator> {
  const emu = await startTestEmulator({ faults: faults as never });
  open.push(emu);
  return emu;
}

async function setFaults(emu: TestEmulator, faults: unknown[]): Promise<void> {
  const res = await adminFetch(`${emu.url}/__emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults }),
  });
  expect(res.status).toBe(200);
}

function csv(rows: [number, string][]): string {
  const file = join(tempDir('billing-money-'), 'refunds.csv');
  writeFileSync(file, `payment_id,amount\n${rows.map(([p, a]) => `${p},${a}`).join('\n')}\n`);
  return file;
}

/** A service that ignores Idempotency-Key: a proxy in front of the emulator that drops it, and notes each one it saw. */
async function ignoringKeys(emu: TestEmulator): Promise<{ url: string; keys: string[] }> {
  const keys: string[] = [];
  const target = new URL(emu.url);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    const key = headers['idempotency-key'];
    if (typeof key === 'string') keys.push(key);
    delete headers['idempotency-key'];
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  open.push({ close: () => new Promise<void>((done) => server.close(() => done())) });
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, keys };
}

/** The ids of the refunds of a payment in the service's records, shown in its reads or not. */
function refundIdsOf(emu: TestEmulator, paymentId: number): number[] {
  return [...emu.emulator.state.payments.values()]
    .filter((p) => p.parent_id === paymentId && p.kind === 'refund')
    .map((p) => p.id);
}

describe('§1 nothing whose outcome is unknown is sent again unasked', () => {
  it('a record that never shows: 3 runs (plain, --amend, --new-batch) → 1 refund; the re-run names the row and what the service shows', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: NEVER }]);
    const { payments } = await seedPayments(emu.url, 1);
    const id = String(payments[0]);
    const env = emu.env();
    const args = ['payments', 'refund', id, '--amount', '1.00', '--settle-window', '0.3'];
    const first = await runCli(args, { env, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(10);
    const again = await runCli(args, { env, timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(10);
    expect(again.stderr).toContain('it was not sent again');
    expect(again.stderr).toContain(`payment ${id} shows no refund`);
    expect(again.stderr).toContain('--resend-in-doubt');
    expect(again.stderr).not.toContain('--new-batch');
    const newBatch = await runCli([...args, '--new-batch'], { env, timeoutMs: 30_000 });
    expect(newBatch.code).not.toBe(0);
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
  });

  it('a 5-row batch whose records never show: the re-run leaves 5 rows in doubt and sends nothing (5 refunds, not 10)', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: NEVER }]);
    const { payments } = await seedPayments(emu.url, 5);
    const file = csv(payments.map((p) => [p, '1.00']));
    const env = emu.env();
    const args = ['payments', 'refund', '--file', file, '--settle-window', '0.3', '-o', 'ndjson'];
    const first = await run(args, { env, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(10);
    const again = await run(args, { env, timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(10);
    const rows = parseNdjson(again.stdout) as { status: string }[];
    expect(rows.map((r) => r.status)).toEqual(payments.map(() => 'in_doubt'));
    expect(again.stderr).toContain('0 refunded');
    for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  });

  it("the client's timeout before a slow answer (BILLING_TIMEOUT shorter than the service): in doubt, and the re-run finds the refund (1 refund)", async () => {
    const emu = await service([{ route: 'refund', mode: 'slow', latency_ms: 3000 }]);
    const { payments } = await seedPayments(emu.url, 1);
    const id = String(payments[0]);
    const env = emu.env({ BILLING_TIMEOUT: '1' });
    const args = ['payments', 'refund', id, '--amount', '2.00', '--settle-window', '0.2'];
    const first = await run(args, { env, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(10);
    // The service applies it when its slow answer comes; the re-run reads it and sends nothing.
    await waitFor(() => refundsOf(emu.emulator.state, Number(id)).length > 0);
    const again = await run(args, {
      env: emu.env({ BILLING_STATE_DIR: env.BILLING_STATE_DIR }),
      timeoutMs: 30_000,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['2.00']);
  });
});

describe('--resend-in-doubt on production', () => {
  it('is confirmed with the rows it sends again listed: refused without a terminal unless --yes, nothing sent', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: NEVER }]);
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const file = csv([
      [a, '1.00'],
      [b, '2.00'],
    ]);
    const env = emu.env();
    const args = ['payments', 'refund', '--file', file, '--settle-window', '0.2'];
    expect((await run(args, { env, timeoutMs: 30_000 })).code).toBe(10);
    await setFaults(emu, []);
    const asked = await run([...args, '--resend-in-doubt'], {
      env: { ...env, BILLING_ENV: 'production' },
      timeoutMs: 30_000,
    });
    expect(asked.code, asked.stderr).toBe(2);
    expect(asked.stderr).toContain(
      `sending again 2 rows in doubt (--resend-in-doubt): line 2, payment ${a}, 1.00; line 3, payment ${b}, 2.00`,
    );
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['2.00']);
  });
});

describe('§2 a move is recognised by its own identity', () => {
  it('the emulator honours Idempotency-Key: a repeat answers the first result and moves nothing; the key on another request is 422', async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 1);
    const id = payments[0] as number;
    const send = (amount: string, key: string) =>
      fetch(`${emu.url}/api/v2/profiles/1/payments/${id}/refund`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${emu.env().BILLING_API_TOKEN as string}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ payment: { amount } }),
      });
    const a = await send('1.00', 'k-1');
    const b = await send('1.00', 'k-1');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const [ra, rb] = [
      (await a.json()) as { payment: { id: number } },
      (await b.json()) as { payment: { id: number } },
    ];
    expect(rb.payment.id).toBe(ra.payment.id);
    expect(refundsOf(emu.emulator.state, id)).toEqual(['1.00']);
    const other = await send('2.00', 'k-1');
    expect(other.status).toBe(422);
    expect(refundsOf(emu.emulator.state, id)).toEqual(['1.00']);
  });

  it('--resend-in-doubt against a service that honours the key: sent with the first key, answered with the first refund: exactly 1', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: NEVER }]);
    const { payments } = await seedPayments(emu.url, 1);
    const id = String(payments[0]);
    const env = emu.env();
    const journal = join(tempDir('billing-money-'), 'one.journal');
    const args = [
      'payments',
      'refund',
      id,
      '--amount',
      '1.00',
      '--settle-window',
      '0.3',
      '--journal',
      journal,
    ];
    expect((await run(args, { env, timeoutMs: 30_000 })).code).toBe(10);
    await setFaults(emu, []);
    const resend = await run([...args, '--resend-in-doubt'], { env, timeoutMs: 30_000 });
    expect(resend.code, resend.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
    const started = journalLines(journal).filter((r) => r.state === 'started');
    expect(started).toHaveLength(2);
    expect(typeof started[0]?.identity).toBe('string');
    expect(started[1]?.identity).toBe(started[0]?.identity);
  });

  it("--resend-in-doubt of two rows on one payment: each row's refund is its own, never another row's unexplained move (2 refunds)", async () => {
    // Both answers lost before anything applied: both rows in doubt. The resend sends the first
    // row; the second then sees the first's refund on the payment, which is not in its baseline:
    // the journal names it as the first row's move, so it neither claims it nor takes it for a
    // move that landed differently.
    const emu = await service([{ route: 'refund', mode: 'before' }]);
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const id = payments[0] as number;
    const file = csv([
      [id, '3.10'],
      [id, '4.90'],
    ]);
    const env = emu.env();
    const args = ['payments', 'refund', '--file', file, '--settle-window', '0.2', '-o', 'ndjson'];
    const first = await run(args, { env, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(10);
    expect(refundsOf(emu.emulator.state, id)).toEqual([]);
    await setFaults(emu, []);
    const resend = await run([...args, '--resend-in-doubt'], { env, timeoutMs: 30_000 });
    expect(resend.code, resend.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, id).sort()).toEqual(['3.10', '4.90']);
    const rows = parseNdjson(resend.stdout) as { status: string }[];
    expect(rows.map((r) => r.status)).toEqual(['refunded', 'refunded']);
  });

  it('a service that ignores the key: the row sent its one key, and the re-run finds the late record by the baseline without sending (1 refund)', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: 1500 }]);
    const proxy = await ignoringKeys(emu);
    const { payments } = await seedPayments(emu.url, 1);
    const id = String(payments[0]);
    const env = emu.env({
      BILLING_BASE_URL: `${proxy.url}/api/v2`,
      BILLING_BASE_URL_V1: `${proxy.url}/api/v1`,
    });
    const args = ['payments', 'refund', id, '--amount', '1.00', '--settle-window', '0.2'];
    expect((await run(args, { env, timeoutMs: 30_000 })).code).toBe(10);
    // Until the late record shows in the service's reads (1.5 s after it was made).
    const refunds = refundIdsOf(emu, Number(id));
    expect(refunds.length).toBeGreaterThan(0);
    await recordsShown(emu.url, refunds, 50);
    const again = await run(args, { env, timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(proxy.keys).toHaveLength(1);
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
  });

  it('a row recorded done whose record the service does not show is in doubt (exit 10), never failed, and no hint says --new-batch', async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 1);
    const id = payments[0] as number;
    const dir = tempDir('billing-money-');
    const file = csv([[id, '1.00']]);
    const journal = join(dir, 'r.journal');
    const env = emu.env();
    const first = await run(['payments', 'refund', '--file', file, '--journal', journal], { env });
    expect(first.code, first.stderr).toBe(0);
    // The journal names a record the service does not show (yet): a lagging service, a journal restored.
    const { readFileSync } = await import('node:fs');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/"result_id":\d+/, '"result_id":999999'));
    const again = await run(['payments', 'refund', '--file', file, '--journal', journal, '-o', 'ndjson'], {
      env,
    });
    expect(again.code, again.stderr).toBe(10);
    expect((parseNdjson(again.stdout) as { status: string }[])[0]?.status).toBe('in_doubt');
    expect(again.stderr).not.toContain('--new-batch');
    expect(refundsOf(emu.emulator.state, id)).toEqual(['1.00']);
  });
});

describe("§3 the service's record is the truth across files, folders and journals", () => {
  it("tomorrow's export under a new name: yesterday's rows are done before (skipped, with the refund's id), the new ones refunded", async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 4);
    const [a, b, c, d] = payments as [number, number, number, number];
    const env = emu.env();
    const yesterday = csv([
      [a, '1.00'],
      [b, '1.00'],
    ]);
    expect((await run(['payments', 'refund', '--file', yesterday], { env })).code).toBe(0);
    const today = csv([
      [a, '1.00'],
      [b, '1.00'],
      [c, '1.00'],
      [d, '1.00'],
    ]);
    // Another state folder too: nothing of the first run's is known to this one.
    const r = await run(['payments', 'refund', '--file', today, '-o', 'ndjson'], {
      env: emu.env({ BILLING_STATE_DIR: tempDir('billing-state-') }),
    });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseNdjson(r.stdout) as { status: string; refund_id: number | null }[];
    expect(rows.map((x) => x.status)).toEqual(['skipped', 'skipped', 'refunded', 'refunded']);
    expect(rows[0]?.refund_id).toBeGreaterThan(0);
    for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
    // --again refunds them on purpose.
    const again = await run(['payments', 'refund', '--file', today, '--again', '--new-batch'], {
      env: emu.env({ BILLING_STATE_DIR: tempDir('billing-state-') }),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00', '1.00']);
  });

  it('a copy of the CSV with another XDG_STATE_HOME and journal: 0 refunded again', async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 3);
    const file = csv(payments.map((p) => [p, '2.00']));
    expect((await run(['payments', 'refund', '--file', file], { env: emu.env() })).code).toBe(0);
    const copy = join(tempDir('billing-money-'), 'copy.csv');
    copyFileSync(file, copy);
    const r = await run(['payments', 'refund', '--file', copy], {
      env: emu.env({ BILLING_STATE_DIR: undefined, XDG_STATE_HOME: tempDir('billing-xdg-') }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('0 refunded, 3 skipped');
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual(['2.00']);
  });

  it('rows of 20.00 and 10.00 on a 24.90 payment while the first is in doubt: the second is refused, 20.00 sent in all', async () => {
    const emu = await service([{ route: 'refund', mode: 'late', latency_ms: NEVER }]);
    const { payments } = await seedPayments(emu.url, 1, { amount: '24.90' });
    const id = payments[0] as number;
    const file = csv([
      [id, '20.00'],
      [id, '10.00'],
    ]);
    const r = await run(['payments', 'refund', '--file', file, '--settle-window', '0.2', '-o', 'ndjson'], {
      env: emu.env(),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(10);
    const rows = parseNdjson(r.stdout) as { status: string; error: string | null }[];
    expect(rows.map((x) => x.status)).toEqual(['in_doubt', 'failed']);
    expect(rows[1]?.error).toContain('in doubt');
    expect(refundsOf(emu.emulator.state, id)).toEqual(['20.00']);
  });

  it('two hard links of one journal run at once with different state folders: the second is refused (exit 13); run after, it sends nothing', async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 3);
    const file = csv(payments.map((p) => [p, '1.00']));
    const first = join(tempDir('billing-money-'), 'a.journal');
    const second = join(tempDir('billing-money-'), 'b.journal');
    // The first run sends through a double that holds its refunds: once one has arrived, the run
    // holds its journal and its lock, and it goes on holding them until the test lets it finish
    // (a wait for a fact, not for a time a loaded machine may overrun either way).
    const held = await holdRefunds(emu.url);
    open.push(held);
    // Every run goes through it (the journal is bound to the address it was written for).
    const env = () =>
      emu.env({
        BILLING_STATE_DIR: tempDir('billing-state-'),
        BILLING_BASE_URL: `${held.url}/api/v2`,
        BILLING_BASE_URL_V1: `${held.url}/api/v1`,
      });
    const a = runCli(['payments', 'refund', '--file', file, '--journal', first, '--concurrency', '1'], {
      env: env(),
      timeoutMs: 30_000,
    });
    await waitFor(() => held.arrived() > 0);
    linkSync(first, second);
    const b = await runCli(['payments', 'refund', '--file', file, '--journal', second], {
      env: env(),
      timeoutMs: 30_000,
    });
    expect(b.code, b.stderr).toBe(13);
    expect(held.arrived()).toBe(1);
    held.release();
    expect((await a).code).toBe(0);
    const after = await runCli(['payments', 'refund', '--file', file, '--journal', second], {
      env: env(),
      timeoutMs: 30_000,
    });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('0 refunded, 3 skipped');
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00']);
  });

  it('a journal path that is the input is refused before it is opened: the input is untouched (exit 2)', async () => {
    const emu = await service();
    const { payments } = await seedPayments(emu.url, 2);
    const file = csv(payments.map((p) => [p, '1.00']));
    const { readFileSync } = await import('node:fs');
    const before = readFileSync(file, 'utf8');
    const r = await run(['payments', 'refund', '--file', file, '--journal', file], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is the input');
    expect(readFileSync(file, 'utf8')).toBe(before);
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual([]);
  });
});

// Issue 16 §7: a delivery's identity is what the signature covers. The built
// `billing webhooks listen` runs as a process over real HTTP, forwarding to a test app that
// records what it gets; replay runs against the same app, as a process in its first test and
// in this process (test/helpers/in-process.ts) in the others.

import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { localEnv, runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from './helpers.js';

const SECRET = LOCAL_EMULATOR.webhookSecret;
const env = localEnv();
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function app(): Promise<TestApp> {
  const a = await startApp('/hooks');
  cleanup.push(() => a.close());
  return a;
}

async function listen(args: string[], timeoutMs?: number): Promise<Listener> {
  const l = await startListen(args, env, timeoutMs);
  cleanup.push(async () => {
    if (l.child.exitCode === null) await l.stop();
  });
  return l;
}

function event(id: string, amount = '10.00'): string {
  return JSON.stringify({
    id,
    event: 'order.active',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { previous_status: 'pending', status: 'active', order: { id: 7, initial_amount: amount } },
  });
}

// node:http on kept-alive sockets, not fetch: the 13,700 posts of the memory test cost the test's
// own worker ~4x the CPU through fetch (undici) that they do here, more than listen spends
// answering them (docs/decisions.md, "Issue 35 §5, round 5: the command, webhook, checkout and
// completion files").
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
afterAll(() => agent.destroy());

function post(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A delivery as the service sends it: signed now, its header equal to the body's id. */
function signed(id: string, body = event(id)) {
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-delivery': id,
      'x-service-signature': signatureHeader(SECRET, body),
    },
  };
}

const forwardedIds = (a: TestApp) => a.received.map((r) => JSON.parse(r.body.toString('utf8')).id);

describe('listen takes a delivery by its signed body id', () => {
  it('a captured signed body re-sent within the tolerance under a new header id is 400 and not forwarded', async () => {
    const target = await app();
    const l = await listen(['--forward-to', target.url, '-o', 'tsv']);
    const captured = signed('evt_1');
    expect((await post(l.url, captured.body, captured.headers)).status).toBe(200);
    const replayed = await post(l.url, captured.body, {
      ...captured.headers,
      'x-service-delivery': 'evt_1b',
    });
    expect(replayed.status).toBe(400);
    expect(JSON.parse(replayed.body).error).toMatchObject({ reason: 'delivery_mismatch' });
    expect(JSON.parse(replayed.body).error.message).toContain(
      '"evt_1b" is not the id of the signed body ("evt_1")',
    );
    // The same body under its own id again is the duplicate it is.
    const again = await post(l.url, captured.body, captured.headers);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true });
    expect(forwardedIds(target)).toEqual(['evt_1']);
    const { stderr } = await l.stop();
    expect(stderr).toMatch(/1 rejected/);
  });

  it('a body sent with header evt_2 is 400, and the genuine evt_2 later is forwarded', async () => {
    const target = await app();
    const l = await listen(['--forward-to', target.url]);
    const other = signed('evt_1');
    const forged = await post(l.url, other.body, { ...other.headers, 'x-service-delivery': 'evt_2' });
    expect(forged.status).toBe(400);
    expect(target.received).toHaveLength(0);
    const genuine = signed('evt_2');
    const answer = await post(l.url, genuine.body, genuine.headers);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ duplicate: false });
    expect(forwardedIds(target)).toEqual(['evt_2']);
  });

  it('10,500 replays with 8 KB header ids and 3,000 deliveries with 8 KB ids leave its memory bounded', async () => {
    // Killed only after the test's own deadline (spawnCli's 120 s killed it mid-way at load 30).
    const l = await listen(['-o', 'tsv'], 300_000);
    const pid = l.child.pid as number;
    const rss = () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
    const long = (n: number, tag: string) => `${tag}_${String(n).padStart(8, '0')}_${'x'.repeat(8 * 1024)}`;
    const captured = signed('evt_base');
    // Warm up (the JIT, the sockets), then measure.
    await sendMany(200, (n) =>
      post(l.url, captured.body, { ...captured.headers, 'x-service-delivery': long(n, 'w') }),
    );
    const before = rss();
    const statuses = await sendMany(10_500, (n) =>
      post(l.url, captured.body, { ...captured.headers, 'x-service-delivery': long(n, 'h') }),
    );
    expect(new Set(statuses)).toEqual(new Set([400]));
    // Genuine deliveries whose (signed) ids are 8 KB long: remembered by a hash, not whole.
    const accepted = await sendMany(3_000, (n) => {
      const d = signed(long(n, 'evt'));
      return post(l.url, d.body, d.headers);
    });
    expect(new Set(accepted)).toEqual(new Set([200]));
    const grown = rss() - before;
    // Unbounded, the 13,500 ids alone would keep over 100 MB (issue 16 saw 60 → 181 MB).
    expect(grown, `RSS grew ${Math.round(grown / 1e6)} MB`).toBeLessThan(40 * 1024 * 1024);
    // Still a working listener that remembers a long id it took.
    const last = signed(long(2_999, 'evt'));
    expect(JSON.parse((await post(l.url, last.body, last.headers)).body)).toMatchObject({ duplicate: true });
  }, 300_000);
});

/** `count` requests, 8 at a time; their statuses in order. */
async function sendMany(count: number, one: (n: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const n = next++;
        statuses[n] = (await one(n)).status;
      }
    }),
  );
  return statuses;
}

/** Records deliveries with a listen process (its extra args), stopped when they are all in. */
async function record(args: string[], deliveries: { body: string; headers: Record<string, string> }[]) {
  const file = join(tempDir('billing-record-'), 'deliveries.ndjson');
  const l = await listen(['--record', file, '-o', 'tsv', ...args]);
  for (const d of deliveries) expect((await post(l.url, d.body, d.headers)).status).toBe(200);
  await l.lines(deliveries.length);
  await l.stop();
  return file;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** `webhooks replay` as the built CLI: the exit code, stderr and what reached the app of the process. */
const replay = (file: string, to: string, extra: string[] = []) =>
  runCli(['webhooks', 'replay', file, '--to', to, ...extra], { env, timeoutMs: 30_000 });
/**
 * The same run in this process (test/helpers/in-process.ts): what replay decides about a record.
 * The first test below runs it as the process, refusing and sending.
 */
const replayHere = (file: string, to: string, extra: string[] = []) =>
  runInProcess(['webhooks', 'replay', file, '--to', to, ...extra], { env });

describe('replay re-signs only what was verified and is unchanged', () => {
  it('refuses a record taken with --skip-verify (exit 2, one line, nothing sent); --send-unverified sends it unsigned and marked', async () => {
    const file = await record(['--skip-verify'], [signed('evt_u1'), signed('evt_u2')]);
    expect(lines(file).every((r) => r.verified === false && r.verified_digest === undefined)).toBe(true);
    const target = await app();
    const refused = await replay(file, target.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      `error: ${file} line 1 (delivery evt_u1) was recorded without verification (listen --skip-verify) (and 1 more): replay re-signs only deliveries verified when recorded and unchanged since; nothing was sent`,
    );
    expect(refused.stderr).toContain('--send-unverified');
    expect(target.received).toHaveLength(0);

    const sent = await replay(file, target.url, ['--send-unverified']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(forwardedIds(target)).toEqual(['evt_u1', 'evt_u2']);
    for (const got of target.received) {
      expect(got.headers['x-billing-unverified']).toBe('true');
      expect(got.headers['x-service-signature']).toBeUndefined();
    }
  });

  it('refuses a hand-edited record, even with its verified flag; a verified unchanged one is re-signed', async () => {
    const file = await record([], [signed('evt_v1'), signed('evt_v2')]);
    const recorded = lines(file);
    expect(
      recorded.every((r) => r.verified === true && /^hmac-sha256:[0-9a-f]{64}$/.test(r.verified_digest)),
    ).toBe(true);
    const target = await app();
    const ok = await replayHere(file, target.url);
    expect(ok.code, ok.stderr).toBe(0);
    expect(forwardedIds(target)).toEqual(['evt_v1', 'evt_v2']);
    for (const got of target.received) {
      expect(verifySignature(got.body, got.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
    }

    target.received.length = 0;
    recorded[1].body = recorded[1].body.replace('10.00', '9999.00');
    writeFileSync(file, `${recorded.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const refused = await replayHere(file, target.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toContain(
      'line 2 (delivery evt_v2) changed since it was recorded, or was recorded under another signing secret',
    );
    expect(target.received).toHaveLength(0);

    const marked = await replayHere(file, target.url, ['--send-unverified']);
    expect(marked.code, marked.stderr).toBe(0);
    expect(target.received.map((r) => r.headers['x-billing-unverified'] ?? 'signed')).toEqual([
      'signed',
      'true',
    ]);
    expect(target.received[1]?.headers['x-service-signature']).toBeUndefined();
  });

  it('a record file made elsewhere, with verified: true and a digest it made up, is refused', async () => {
    const file = await record([], [signed('evt_f1')]);
    const [r] = lines(file);
    r.body = event('evt_f1', '5000.00');
    r.verified_digest = `hmac-sha256:${'0'.repeat(64)}`;
    writeFileSync(file, `${JSON.stringify(r)}\n`);
    const target = await app();
    const refused = await replayHere(file, target.url);
    expect(refused.code).toBe(2);
    expect(target.received).toHaveLength(0);
  });
});

describe('credential headers', () => {
  const credentials = {
    authorization: 'Basic dXNlcjpwYXNz',
    cookie: 'session=abc123',
    'proxy-authorization': 'Basic cHJveHk6cGFzcw==',
  };

  it('listen forwards none and records none; replay of an old recording that holds them sends none', async () => {
    const target = await app();
    const file = join(tempDir('billing-record-'), 'deliveries.ndjson');
    const l = await listen(['--forward-to', target.url, '--record', file, '-o', 'tsv']);
    const d = signed('evt_c1');
    expect((await post(l.url, d.body, { ...d.headers, ...credentials })).status).toBe(200);
    await l.lines(1);
    await l.stop();
    await waitFor(() => (target.received.length === 1 ? true : undefined));
    for (const name of Object.keys(credentials)) expect(target.received[0]?.headers[name]).toBeUndefined();
    const [recorded] = lines(file);
    for (const name of Object.keys(credentials)) expect(recorded.headers[name]).toBeUndefined();

    // A recording from before this rule (headers are not part of the digest): still none sent.
    recorded.headers = { ...recorded.headers, ...credentials, Authorization: 'Bearer sk_live_x' };
    writeFileSync(file, `${JSON.stringify(recorded)}\n`);
    target.received.length = 0;
    const sent = await replayHere(file, target.url);
    expect(sent.code, sent.stderr).toBe(0);
    expect(target.received).toHaveLength(1);
    for (const name of Object.keys(credentials)) expect(target.received[0]?.headers[name]).toBeUndefined();
    expect(target.received[0]?.headers['x-service-delivery']).toBe('evt_c1');
  });
});

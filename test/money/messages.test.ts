// Issue 33 §4: a message send in doubt is noted per order and kind, beyond any batch: no id
// list that includes the order sends it again unasked, nor a single send, nor a retry loop;
// --resend-in-doubt does. A single send whose result could not be written (/dev/full, exit 12)
// is in doubt too: its retry sends nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// biome-ignore lint/suspicious/noExplicitAny: the emulator's answers are read field by field
type Any = any;
let emu: TestEmulator;
let state: string;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  state = tempDir('billing-messages-state-');
});
afterAll(async () => {
  await emu.close();
});

const cli = (args: string[], o: { stdoutFile?: string } = {}) =>
  runCli(args, { env: emu.env({ BILLING_STATE_DIR: state }), timeoutMs: 30_000, ...o });

async function emailsTo(order: string): Promise<number> {
  const messages: Any[] = (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages;
  return messages.filter((m) => String(m.order_id) === order && m.channel !== 'sms').length;
}

async function faults(list: unknown[]): Promise<void> {
  const res = await adminFetch(`${emu.url}/__emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: list }),
  });
  expect(res.status).toBe(200);
}

async function pendingWithEmail(n: number): Promise<string[]> {
  const r = await cli(['orders', 'list', '--status', 'pending', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return (parseNdjson(r.stdout) as Any[])
    .filter((o) => o.customer?.email)
    .slice(0, n)
    .map((o) => String(o.id));
}

describe('a message in doubt, per order and kind', () => {
  it('an e-mail in doubt, then another id list with that order, then the order alone, then a retry loop: 1 e-mail; --resend-in-doubt under the first key: still 1', async () => {
    const [a, b, c] = (await pendingWithEmail(3)) as [string, string, string];
    await faults([{ route: 'sendEmailLink', mode: 'after' }]);
    const first = await cli(['links', 'email', a, '--settle-window', '0']);
    expect(first.code).not.toBe(0);
    await faults([]);
    expect(await emailsTo(a)).toBe(1);
    const list = await cli(['links', 'email', b, a, c, '-o', 'ndjson']);
    expect(list.code, list.stderr).toBe(10);
    const rows = parseNdjson(list.stdout) as { id: number; status: string }[];
    expect(rows.find((r) => String(r.id) === a)?.status).toBe('in_doubt');
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(2);
    for (let retry = 0; retry < 3; retry++) {
      const alone = await cli(['links', 'email', a]);
      expect(alone.code, alone.stderr).toBe(10);
      expect(alone.stderr).toContain('it was not sent again');
    }
    expect(await emailsTo(a)).toBe(1);
    // Asked: sent again under the first send's Idempotency-Key (kept in the ledger), which the
    // emulator honours: it answers the first send, and the customer gets one e-mail.
    const asked = await cli(['links', 'email', a, '--resend-in-doubt']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(await emailsTo(a)).toBe(1);
  });

  it('a single send whose result cannot be written (/dev/full, exit 12): the retry sends nothing', async () => {
    const [, , , d] = (await pendingWithEmail(4)) as [string, string, string, string];
    const before = await emailsTo(d);
    const full = await cli(['links', 'email', d], { stdoutFile: '/dev/full' });
    expect(full.code, full.stderr).toBe(12);
    const retry = await cli(['links', 'email', d]);
    expect(retry.code, retry.stderr).toBe(10);
    expect(await emailsTo(d)).toBe(before + 1);
  });
});

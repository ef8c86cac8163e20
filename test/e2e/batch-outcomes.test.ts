// Issue 29: the batch engine speaks of actions and their outcomes — done, already done
// (status "skipped"), nothing to do, in doubt, failed. The built billing against the demo
// emulator; orders read back over HTTP, the outbox counted.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

// A state directory of its own per test: no journal of another test is found.
const cli = (args: string[], state = tempDir('billing-outcomes-state-')) =>
  runCli(args, { env: emu.env({ BILLING_STATE_DIR: state }), timeoutMs: 30_000 });

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

async function ordersIn(status: string): Promise<Any[]> {
  const r = await cli(['orders', 'list', '--status', status, '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as Any[];
}

async function outboxSize(): Promise<number> {
  return (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages.length;
}

async function statusOf(id: number): Promise<string> {
  const r = await cli(['orders', 'get', String(id), '-o', 'json']);
  return JSON.parse(r.stdout).status.value;
}

describe('nothing to do: the order shows the action done before anything is sent', () => {
  it('orders pause of a paused and an active order: the paused one is nothing_to_do (not failed), nothing sent for it; exit 0', async () => {
    const active = (await ordersIn('active')).filter((o) => o.order_type.value === 'subscription');
    const [paused, other] = active.slice(0, 2).map((o) => Number(o.id)) as [number, number];
    expect(await cli(['orders', 'pause', String(paused)])).toMatchObject({ code: 0 });
    const before = await outboxSize();

    const r = await cli(['orders', 'pause', String(paused), String(other), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(parseNdjson(r.stdout)).toEqual([
      { id: paused, status: 'nothing_to_do', result: `order ${paused} is paused already`, error: null },
      { id: other, status: 'paused', result: 'paused', error: null },
    ]);
    expect(r.stderr).toMatch(/1 paused, 0 skipped \(.*\), 1 nothing to do, 0 failed, of 2 orders/);
    // One pause notice: the other order's. The paused one was sent nothing.
    expect((await outboxSize()) - before).toBe(1);
    expect(await statusOf(other)).toBe('paused');
    await cli(['orders', 'resume', String(paused), String(other)]);
  });

  it('orders resume and cancel say the same of an order active / cancelled already', async () => {
    const active = (await ordersIn('active')).filter((o) => o.order_type.value === 'subscription');
    const id = Number(active.at(-1).id);
    const resumed = await cli([
      'orders',
      'resume',
      String(id),
      '--journal',
      join(tempDir('j-'), 'j'),
      '-o',
      'json',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual([
      { id, status: 'nothing_to_do', result: `order ${id} is active already`, error: null },
    ]);
    const cancelled = (await ordersIn('cancelled'))[0];
    const c = await cli([
      'orders',
      'cancel',
      String(cancelled.id),
      '--journal',
      join(tempDir('j-'), 'j'),
      '-o',
      'json',
    ]);
    expect(c.code, c.stderr).toBe(0);
    expect(JSON.parse(c.stdout)[0]).toMatchObject({
      status: 'nothing_to_do',
      result: `order ${cancelled.id} is cancelled already`,
    });
  });
});

describe('a journal written by billing 0.3', () => {
  it('is read as it is: its rows done are skipped (already done), the rest acted on; nothing sent twice', async () => {
    const active = (await ordersIn('active')).filter((o) => o.order_type.value === 'subscription');
    const [done, todo] = active.slice(2, 4).map((o) => Number(o.id)) as [number, number];
    // The order 0.3 paused is paused on the service; its journal says so.
    expect(await cli(['orders', 'pause', String(done)])).toMatchObject({ code: 0 });
    const path = join(tempDir('billing-old-journal-'), 'pause.journal');
    const at = '2026-11-20T10:00:00.000Z';
    // The lines as 0.3 wrote them: a header of version 2 (no service: it predates that field),
    // "started" then the done word; the second row was never reached.
    const lines = [
      {
        v: 2,
        type: 'batch',
        batch: 'b0a3f1',
        action: 'pause',
        input: 'the command line',
        rows: [
          [1, String(done)],
          [2, String(todo)],
        ],
        digest: 'sha256:0',
        created: at,
        at,
      },
      { v: 2, key: String(done), id: done, state: 'started', currency: 'EUR', line: 1, at },
      { v: 2, key: String(done), id: done, state: 'paused', result_id: done, at },
    ];
    writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    const before = await outboxSize();

    const r = await cli(['orders', 'pause', String(done), String(todo), '--journal', path, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect((parseNdjson(r.stdout) as Any[]).map((x) => [x.id, x.status])).toEqual([
      [done, 'skipped'],
      [todo, 'paused'],
    ]);
    expect((await outboxSize()) - before).toBe(1);
    await cli(['orders', 'resume', String(done), String(todo)]);
  });
});

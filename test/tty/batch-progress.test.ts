// A batch of actions on a real terminal: the progress line of the batch engine shows while
// the links go out, and the first Ctrl-C lets the rows in flight finish (issue 18 §3).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;
// One state directory for both runs: the journal of ids lives there, as it does for a user.
const state = tempDir('billing-tty-state-');
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(() => emu.close());

async function pendingIds(): Promise<string[]> {
  const r = await runCli(['orders', 'list', '--status', 'pending', '--all', '-o', 'ndjson'], {
    env: emu.env(),
    timeoutMs: 30_000,
  });
  return (parseNdjson(r.stdout) as { id: number; customer: { email: string | null } }[])
    .filter((o) => o.customer.email)
    .map((o) => String(o.id));
}

describe('links email with several ids on a terminal', () => {
  it('shows the progress of the batch; Ctrl-C stops it (exit 130) with the rows not started counted, and a re-run sends only those', async () => {
    const ids = (await pendingIds()).slice(0, 8);
    expect(ids).toHaveLength(8);
    const faults = [{ route: 'POST /orders/:id/send_email_link', mode: 'slow', latency_ms: 700 }];
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults });
    let text = '';
    try {
      const term = runOnPty(['links', 'email', ...ids, '--concurrency', '2'], {
        env: emu.env({ BILLING_STATE_DIR: state }),
      });
      await term.waitFor(/[1-9]\/8: [1-9] sent, 0 skipped, 0 failed/);
      term.type('\x03');
      await term.waitFor('Stopping: letting the rows in flight finish');
      const result = await term.exited;
      expect(result.code).toBe(130);
      text = result.text;
    } finally {
      await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
    }
    const summary =
      /(\d+) sent, 0 skipped \(sent by an earlier run\), 0 failed, (\d+) not started, of 8 orders/.exec(text);
    expect(summary, text).not.toBeNull();
    const sent = Number(summary?.[1]);
    const rerun = await runCli(['links', 'email', ...ids, '-o', 'ndjson'], {
      env: emu.env({ BILLING_STATE_DIR: state }),
      timeoutMs: 30_000,
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${8 - sent} sent, ${sent} skipped`);
    const outbox = (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages as {
      order_id: number;
    }[];
    for (const id of ids) expect(outbox.filter((m) => String(m.order_id) === id)).toHaveLength(1);
  });
});

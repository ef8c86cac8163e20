// Issue 29 §2: one table of actions (src/ops/batch/action-table.ts). Every entry is checked
// against the built billing: its command's --dry-run prints the action's own request (not a
// second table of routes), its --help has the flags of batchFlagsOf and the batch help with its
// done word. A new entry is covered without editing a list here.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/domain/routes.js';
import { ACTIONS, type ActionName, batchFlagsOf } from '../../src/ops/batch/action-table.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

let emu: TestEmulator;
const state = tempDir('billing-table-state-');

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const cli = (args: string[]) =>
  runCli(args, { env: emu.env({ BILLING_STATE_DIR: state }), timeoutMs: 30_000 });
/** main() in-process (test/helpers/in-process.ts): the ids read, and the --dry-runs after the first action's. */
const here = (args: string[]) => runInProcess(args, { env: emu.env({ BILLING_STATE_DIR: state }) });

const NAMES = Object.keys(ACTIONS) as ActionName[];

/** Two ids of records the action acts on, from the demo seed. */
async function twoIds(on: 'order' | 'payment'): Promise<number[]> {
  const r = await here([on === 'order' ? 'orders' : 'payments', 'list', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }[]).slice(0, 2).map((x) => x.id);
}

describe('the table of actions', () => {
  it.each(NAMES)(
    "%s: --dry-run of its command with two ids prints the action's own request per id",
    async (name) => {
      const entry = ACTIONS[name];
      const ids = await twoIds(entry.on);
      const run = name === NAMES[0] ? cli : here;
      const r = await run([...entry.command.split(' '), ...ids.map(String), '--dry-run']);
      expect(r.code, r.stderr).toBe(0);
      const route = routes[entry.request];
      // A route that takes an amount sends its root key, empty for the full amount.
      const body = route.rootKey === undefined ? '' : ` ${JSON.stringify({ [route.rootKey]: {} })}`;
      expect(r.stdout.trim().split('\n')).toEqual(
        ids.map(
          (id) =>
            `${route.method} /api/v2${route.path.replace('{profile_id}', '1').replace('{id}', String(id))}${body}`,
        ),
      );
    },
  );

  it.each(NAMES)('%s: its command takes every batch flag and says its statuses in --help', async (name) => {
    const entry = ACTIONS[name];
    const r = await cli([...entry.command.split(' '), '--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const flag of batchFlagsOf(name)) expect(r.stdout).toContain(flag.flag.split(' ')[0]);
    // Refunds from a file print their own columns; every other batch says the table's words.
    if (name !== 'refund') {
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(
        `status (${entry.done}, skipped, nothing_to_do, failed or in_doubt)`,
      );
    }
  });
});

// The tool's state folder: what this machine keeps between runs (the index of batches, their
// journals for ids and stdin, the links sent, the messages in doubt, the MCP sessions, the
// emulator's key when TMPDIR will not do). BILLING_STATE_DIR, else $XDG_STATE_HOME/billing,
// else ~/.local/state/billing. A blank BILLING_STATE_DIR is refused before any command runs
// (refuseEmptyVariables, src/config/variables.ts); here, as for the emulator started from
// `billing/emulator`, it counts as unset.

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function stateDir(env: Record<string, string | undefined>, home: string = homedir()): string {
  const dir = env.BILLING_STATE_DIR;
  if (dir !== undefined && dir.trim() !== '') return resolve(dir);
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'billing');
}

// Whose emulator is it? `emulator stop` and `emulator reset` ask (or need --yes) before
// touching one that keeps a --data file (reset wipes it there too), or that another user or
// another checkout started: it is probably someone else's work.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { wideBindingWarning } from '../../domain/hosts.js';
import { LOCAL_EMULATOR } from '../../domain/local.js';
import { safeLine } from '../../format/terminal.js';
import { confirmOrYes } from '../runtime/confirm.js';
import type { Runtime } from '../runtime/runtime.js';
import { adminCall } from './admin.js';

interface Status {
  data_file?: string | null;
  started_by?: { uid?: number | null; cwd?: string };
}

export async function confirmTouchingEmulator(rt: Runtime, origin: string, action: 'stop' | 'reset') {
  const status = await adminCall<Status>(origin, 'GET', 'status');
  const reasons: string[] = [];
  if (action === 'reset' && typeof status.data_file === 'string') {
    reasons.push(`it keeps its data in ${status.data_file}, which a reset wipes too`);
  }
  const by = status.started_by;
  const uid = process.getuid?.();
  if (typeof by?.uid === 'number' && uid !== undefined && by.uid !== uid) {
    reasons.push(`another user (uid ${by.uid}) started it`);
  } else if (typeof by?.cwd === 'string' && checkoutOf(by.cwd) !== checkoutOf(process.cwd())) {
    reasons.push(`it was started in another checkout (${by.cwd})`);
  }
  if (reasons.length === 0) return;
  const why = safeLine(reasons.join('; '));
  await confirmOrYes(rt, {
    refusal: `refusing to ${action} the emulator at ${origin} without confirmation: ${why}`,
    question: `${action === 'stop' ? 'Stop' : 'Reset'} the emulator at ${origin}? ${why}.`,
    cancelled: `cancelled: the emulator at ${origin} was left as it is`,
  });
}

/** The checkout a directory belongs to: the nearest folder up with a .git, else the directory. */
function checkoutOf(dir: string): string {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return resolve(dir);
  }
}

/** Said when `emulator start --host` opens it beyond this machine. */
export function emulatorWideBindingWarning(host: string): string | undefined {
  return wideBindingWarning(
    host,
    `anyone who reaches it can use the API with the public development token (${LOCAL_EMULATOR.token})`,
  );
}

// The guard before every write a command sends (src/api/client.ts `beforeWrite`), derived from
// the command's description (`moves`, src/cli/kit/verb.ts): a command that declares it changes
// nothing at the service never writes; a dry run prints its first write and stops there; on
// production (or an address away from this machine, src/config/kind.ts) a write goes only once
// confirmed — by the command's own question (confirm.ts), by --yes, or else here, in the
// command's words, before the first write.

import type { Runtime } from '../../ops/runtime/runtime.js';

/** Thrown once a dry run has printed the write it stopped: the command ends there, exit 0. */
export class DryRunStop extends Error {
  override name = 'DryRunStop';
}

export interface Write {
  method: string;
  /** The request line's path, from the base's own path on. */
  path: string;
  body?: string;
}

/** One question per command, however many writes are waiting for it. */
const asked = new WeakMap<Runtime, Promise<void>>();

export async function guardWrite(rt: Runtime, write: Write): Promise<void> {
  const { moves, dryRun, line, confirmed } = rt.writes;
  if (moves === 'none') {
    // A description that says the command changes nothing is wrong: refused, never sent.
    throw new Error(
      `${line} declares that it changes nothing at the service (moves: 'none'), yet it was about to send ${write.method} ${write.path}; nothing was sent`,
    );
  }
  if (dryRun) {
    if (!rt.writes.quiet) {
      const { writePreviews } = await import('../../ops/runtime/preview.js');
      const body = write.body === undefined ? undefined : JSON.parse(write.body);
      await writePreviews(rt, [{ method: write.method, path: write.path, body }], true);
    }
    throw new DryRunStop(`dry run: ${write.method} ${write.path} was not sent`);
  }
  if (confirmed) return;
  let question = asked.get(rt);
  if (!question) {
    const { confirmInProduction } = await import('../../ops/runtime/confirm.js');
    question = confirmInProduction(rt, `run "${line}" (${write.method} ${write.path})`);
    asked.set(rt, question);
  }
  await question;
}

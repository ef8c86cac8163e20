// Tests that need something of the system (Chromium, a shell, root for mounts, namespaces or
// another user): `const chromium = need('chromium')`, then
// `describe.skipIf(chromium.skip)(\`title${chromium.label}\`, …)`. Where it is missing, every test
// of the block is skipped (none runs), and the block's title carries the reason and the one
// command that would make it run, which `npm test` prints with the skipped tests' names.
// The table is scripts/system-needs.mjs, which `npm test` also reads to install what it can.

import { missing, remedy } from '../../scripts/system-needs.mjs';

/** A key of NEEDS (an unknown one throws when the file loads). */
export type NeedName = string;

export interface Need {
  skip: boolean;
  /** '' when present, else ` (skipped: WHY; COMMAND)` to append to the block's title. */
  label: string;
}

export function need(...names: NeedName[]): Need {
  for (const name of names) {
    const why = missing(name);
    if (why !== undefined) return { skip: true, label: ` (skipped: ${name} ${why}; ${remedy(name)})` };
  }
  return { skip: false, label: '' };
}

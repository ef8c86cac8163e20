// Peak memory of a long read (issue 36 §2), the old generation's part. A page's records often
// live through two scavenges (the window of pages holds them) and are then moved to the old
// generation, where they die: ~5 MB of garbage there per 100,000 orders read. V8 collects the
// old generation when it reaches a limit set at its last full collection, and on a heap this
// small one collection early in the read set a limit that the rest never reached: old space
// ended at ~7 MB after 10,000 orders, ~11 after 100,000, ~16 after 200,000, so the peak grew
// with the list. A full collection whenever it has grown by OLD_STEP_BYTES since the last keeps
// it flat (bench/RESULTS.md, "Issue 36 §2, round 6").
//
// gc() is given to scripts only under --expose-gc. Set at run time, the flag exposes it to a
// context made after it; it is unset again at once, because V8 refuses code cached under other
// flags (bin/billing's cache would be refused for what loads next, and written for a flag that
// the next run does not have).

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of the old generation that makes a full collection. */
export const OLD_STEP_BYTES = 2 * 1024 * 1024;

export interface OldSpaceHold {
  /** Called as the read goes on (each page): a full collection once the old generation grew by the step. */
  check(): void;
}

export function holdOldSpace(step = OLD_STEP_BYTES): OldSpaceHold {
  let base: number | undefined;
  return {
    check() {
      const used = oldSpaceBytes();
      // Below the base: V8 collected on its own.
      if (base === undefined || used < base) base = used;
      if (used - base < step) return;
      fullCollection();
      base = oldSpaceBytes();
    },
  };
}

let collect: (() => void) | undefined;

function fullCollection(): void {
  // Under --expose-gc (NODE_OPTIONS) gc() is there already, and the flag is left as it was given.
  const given = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined && typeof given === 'function') collect = given;
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      collect = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  collect();
}

export function oldSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
}

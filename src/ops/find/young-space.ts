// Peak memory of a long read (issue 36 §2). V8 doubles its young generation whenever the bytes
// that survived its scavenges since the last growth pass its size: a running count, so any long
// list gets there, and reading 100,000 orders took the young generation to its largest on Node 20
// x64 (two 16 MB semi-spaces) and the peak RSS to ~110 MB, against ~80 MB at 10,000.
// --max-semi-space-size is read only when the heap is made: set at run time it changes nothing
// (measured: bench/RESULTS.md, "Issue 36 §2: long lists"). --semi-space-growth-factor is read
// at each growth, so once the young generation has reached YOUNG_CAP_BYTES a factor of 1 keeps
// it there; the factor is V8's default again when the read ends.

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Both semi-spaces together: 2 MB, where V8 starts on Node 20 x64 (the young generation grows
 * from 1 MB), so a read holds it at once. 16 MB until the page buffers were reused
 * (../../api/byte-shelf.ts), then 8; at 2, a list's peak RSS is ~4 MB lower at 10,000 orders
 * and ~5 at 100,000, for no CPU that the runs could show (bench/RESULTS.md, "Issue 36 §2, round 6").
 */
export const YOUNG_CAP_BYTES = 2 * 1024 * 1024;
/** V8's own --semi-space-growth-factor. */
const V8_GROWTH_FACTOR = 2;

export interface YoungSpaceCap {
  /** Called as the read goes on (each page): holds the young generation once it reached the cap. */
  check(): void;
  /** V8's default again. */
  release(): void;
}

/** Reads holding the cap at once (search reads orders and customers together): the flag is the process's. */
let holders = 0;

export function capYoungSpace(cap = YOUNG_CAP_BYTES): YoungSpaceCap {
  let held = false;
  return {
    check() {
      if (held || youngSpaceBytes() < cap) return;
      if (holders++ === 0) setFlagsFromString('--semi-space-growth-factor=1');
      held = true;
    },
    release() {
      if (!held) return;
      held = false;
      if (--holders === 0) setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
    },
  };
}

export function youngSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

// Issue 36 §2: the young generation held at 2 MB while a long list is read (src/ops/find/young-space.ts).
// Each case runs in its own Node process (the built chunk of dist/), since a V8 flag and the heap's
// sizes are the process's: a load shaped like a long read (pages of small objects, each kept a
// while, as the window of pages in flight keeps them) grows the young generation to V8's largest
// without the cap, stays at the cap with it, and grows again once the cap is released.

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CHUNKS = join(import.meta.dirname, '..', '..', 'dist', 'chunks');
const chunk = readdirSync(CHUNKS).find((f) => /^young-space-\w+\.js$/.test(f));

/**
 * Largest young generation (MB) during `pages` pages read with `caps` caps checked per page (0: none),
 * then, the first released, `after` more pages (`held`), then, all released, `after` more (`after`).
 */
function youngMb(o: { caps: number; pages: number; after?: number }): {
  during: number;
  held: number;
  after: number;
} {
  const script = `
    const { capYoungSpace, youngSpaceBytes } = require(${JSON.stringify(join(CHUNKS, chunk ?? ''))});
    const caps = Array.from({ length: ${o.caps} }, () => capYoungSpace());
    const kept = [];
    let most = 0;
    const page = (n) => {
      const records = [];
      for (let j = 0; j < 100; j++) records.push({ id: n * 100 + j, name: 'record ' + n + '.' + j, lines: [{ qty: j, amount: String(j) + '.50' }] });
      kept.push(records);
      if (kept.length > 80) kept.shift();
      most = Math.max(most, youngSpaceBytes());
    };
    const MB = 2 ** 20;
    for (let n = 0; n < ${o.pages}; n++) { page(n); for (const cap of caps) cap.check(); }
    const during = most / MB;
    caps[0]?.release();
    most = 0;
    for (let n = 0; n < ${o.after ?? 0}; n++) page(n);
    const held = most / MB;
    for (const cap of caps) cap.release();
    most = 0;
    for (let n = 0; n < ${o.after ?? 0}; n++) page(n);
    console.log(JSON.stringify({ during, held, after: most / MB }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 }));
}

describe('the young generation during a long read', () => {
  it('the build has the chunk', () => {
    expect(chunk).toBeDefined();
  });

  it('grows to 32 MB without the cap (the load is long enough to show it)', () => {
    expect(youngMb({ caps: 0, pages: 6000 }).during).toBe(32);
  });

  it('stays at 2 MB with the cap, and grows again once it is released', () => {
    const r = youngMb({ caps: 1, pages: 6000, after: 6000 });
    expect(r.during).toBeLessThanOrEqual(2);
    expect(r.during).toBeGreaterThan(0);
    expect(r.after).toBe(32);
  });

  it('two reads at once (search): the cap holds until the last of them is done', () => {
    const r = youngMb({ caps: 2, pages: 6000, after: 6000 });
    expect(r.during).toBeLessThanOrEqual(2);
    expect(r.held).toBeLessThanOrEqual(2);
    expect(r.after).toBe(32);
  });
});

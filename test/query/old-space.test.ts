// Issue 36 §2: the old generation kept flat while a long list is read (src/ops/find/old-space.ts).
// Each case runs in its own Node process (the built chunk of dist/), since the heap and V8's flags
// are the process's: a load shaped like a long read (pages of small objects, each kept a while,
// as the window of pages and the records read keep them, so many are moved to the old generation and die
// there) grows the old generation with the length of the read without the hold, and not with it;
// and the flag the hold sets to reach gc() is unset after, so code cached before is still taken.

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CHUNKS = join(import.meta.dirname, '..', '..', 'dist', 'chunks');
const chunk = readdirSync(CHUNKS).find((f) => /^old-space-\w+\.js$/.test(f));

/** Largest old generation (MB) during `pages` pages read, the hold checked per page or not. */
function oldMb(o: { hold: boolean; pages: number }): { most: number; collected: number } {
  const script = `
    const { holdOldSpace, oldSpaceBytes } = require(${JSON.stringify(join(CHUNKS, chunk ?? ''))});
    const hold = ${o.hold} ? holdOldSpace() : { check() {} };
    const kept = [];
    let most = 0;
    let collected = 0;
    let last = oldSpaceBytes();
    for (let n = 0; n < ${o.pages}; n++) {
      const records = [];
      for (let j = 0; j < 100; j++) records.push({ id: n * 100 + j, name: 'record ' + n + '.' + j, lines: [{ qty: j, amount: String(j) + '.50' }] });
      kept.push(records);
      if (kept.length > 80) kept.shift();
      hold.check();
      const now = oldSpaceBytes();
      if (now < last) collected++;
      last = now;
      most = Math.max(most, now);
    }
    console.log(JSON.stringify({ most: most / 2 ** 20, collected }));
  `;
  return JSON.parse(
    // Semi-spaces of 4 MB, so that a load this short moves enough to the old generation to show it.
    execFileSync(process.execPath, ['--max-semi-space-size=4', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );
}

describe('the old generation during a long read', () => {
  it('the build has the chunk', () => {
    expect(chunk).toBeDefined();
  });

  it('grows with the read without the hold (the load is long enough to show it)', () => {
    const short = oldMb({ hold: false, pages: 1000 });
    const long = oldMb({ hold: false, pages: 8000 });
    expect(long.most - short.most).toBeGreaterThan(4);
  });

  it('stays flat with the hold: a long read ends no higher than a short one, give or take a step', () => {
    const short = oldMb({ hold: true, pages: 1000 });
    const long = oldMb({ hold: true, pages: 8000 });
    expect(long.collected).toBeGreaterThan(0);
    expect(long.most - short.most).toBeLessThan(2.5);
  });

  it('under --expose-gc the hold uses the gc() given and leaves the flag as it was', () => {
    const script = `
      const v8 = require('node:v8');
      const { holdOldSpace } = require(${JSON.stringify(join(CHUNKS, chunk ?? ''))});
      const hold = holdOldSpace(1);
      const garbage = []; for (let i = 0; i < 50000; i++) garbage.push({ i }); garbage.length = 0;
      hold.check(); hold.check();
      console.log(typeof globalThis.gc);
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.trim()).toBe('function');
  });

  it('code cached before its first collection is still taken after it', () => {
    const script = `
      const vm = require('node:vm');
      const { holdOldSpace, oldSpaceBytes } = require(${JSON.stringify(join(CHUNKS, chunk ?? ''))});
      const source = 'function f(a) { return a + 1 } f(2)';
      const cachedData = new vm.Script(source, { filename: 'a.js' }).createCachedData();
      const hold = holdOldSpace(1);
      let garbage = [];
      let collected = 0;
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 100000; i++) garbage.push({ i, s: 'x' + i });
        garbage = [];
        const before = oldSpaceBytes();
        hold.check();
        if (oldSpaceBytes() < before) collected++;
      }
      const again = new vm.Script(source, { filename: 'a.js', cachedData });
      console.log(JSON.stringify({ collected: collected > 0, rejected: again.cachedDataRejected, gcExposed: typeof globalThis.gc }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 }),
    );
    expect(out).toEqual({ collected: true, rejected: false, gcExposed: 'undefined' });
  });
});

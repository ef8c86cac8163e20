// The pieces of a bulk run on their own: ordered bounded concurrency with lanes, the
// journal on disk, and reading the input rows.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/ops/batch/journal.js';
import { JournalLock } from '../../src/ops/batch/lock.js';
import { runInOrder } from '../../src/ops/batch/runner.js';
import { tempDir } from '../helpers/cli.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function collect<T>(source: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('runInOrder', () => {
  it('yields in input order, never runs more than the limit, and never two of a lane at once', async () => {
    const items = Array.from({ length: 60 }, (_, n) => ({ n, lane: n % 7 === 0 ? 'shared' : undefined }));
    let running = 0;
    let most = 0;
    let inLane = 0;
    let laneOverlap = false;
    const results = await collect(
      runInOrder(items, {
        concurrency: 5,
        signal: new AbortController().signal,
        laneOf: (item) => item.lane,
        work: async (item) => {
          running += 1;
          most = Math.max(most, running);
          if (item.lane) {
            inLane += 1;
            if (inLane > 1) laneOverlap = true;
          }
          await sleep((item.n * 7919) % 9);
          if (item.lane) inLane -= 1;
          running -= 1;
          return item.n;
        },
      }),
    );
    expect(results).toEqual(items.map((item) => item.n));
    expect(most).toBe(5);
    expect(laneOverlap).toBe(false);
  });

  it('starts nothing once the signal fires; what runs finishes and is yielded', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await collect(
      runInOrder([0, 1, 2, 3, 4, 5, 6, 7], {
        concurrency: 2,
        signal: controller.signal,
        laneOf: () => undefined,
        work: async (n) => {
          started.push(n);
          if (n === 2) controller.abort();
          await sleep(5);
          return n;
        },
      }),
    );
    expect(started).toEqual([0, 1, 2, 3].slice(0, started.length));
    expect(started.length).toBeLessThanOrEqual(4);
    expect(results).toEqual(started);
  });

  it('throws what a work item throws, to the reader', async () => {
    const run = runInOrder([1, 2, 3], {
      concurrency: 2,
      signal: new AbortController().signal,
      laneOf: () => undefined,
      work: async (n) => {
        if (n === 2) throw new Error('disk full');
        return n;
      },
    });
    await expect(collect(run)).rejects.toThrow('disk full');
  });
});

describe('Journal', () => {
  it('writes one line per record, remembers the last state and the last start, and cuts a torn line', async () => {
    const path = join(tempDir(), 'j.journal');
    const first = await Journal.open(path);
    await Promise.all([
      first.append({ key: '1|full', state: 'started', id: 1, amount: '10.00', baseline: [4] }),
      first.append({ key: '2|5.00', state: 'started', id: 2, amount: '5.00', baseline: [] }),
    ]);
    await first.append({ key: '1|full', state: 'failed', id: 1, error: 'timeout' });
    await first.append({ key: '2|5.00', state: 'refunded', id: 2, amount: '5.00', result_id: 9 });
    await first.close();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"v":1,"key":"3|full","state":"ref`);

    const second = await Journal.open(path);
    expect(second.get('1|full')?.last.state).toBe('failed');
    expect(second.get('1|full')?.started?.baseline).toEqual([4]);
    expect(second.get('2|5.00')?.last).toMatchObject({ state: 'refunded', result_id: 9 });
    expect(second.get('3|full')).toBeUndefined();
    expect(second.unreadable).toEqual([]);
    await second.append({ key: '3|full', state: 'started', id: 3, amount: '1.00', baseline: [] });
    await second.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('takes over the lock of a run that is gone', async () => {
    const path = join(tempDir(), 'j.journal');
    // The lock file of a billing before numbered locks, its pid gone.
    writeFileSync(`${path}.lock`, '999999999');
    const lock = await JournalLock.take(path);
    await lock.release();
    await expect(JournalLock.take(path).then((l) => l.release())).resolves.toBeUndefined();
  });
});

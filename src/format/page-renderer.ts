// Pages of a list made into -o ndjson lines on a worker thread (issue 36 §2): parsing, checking
// and stringifying a page is most of the CPU of `orders list --all -o ndjson` (~2 s of 3.5 at
// 100,000 orders, bench/RESULTS.md), which one thread could not do while it also kept eight
// requests in flight. The worker's code is bundled by the build into a string
// (scripts/build.mjs, __NDJSON_WORKER__): the same in dist/ and in the single executable. Where
// there is none (src/ run directly), or the worker fails, a page is left to the caller, which
// makes it on its own thread: the same bytes (./ndjson-page.ts).

import { Worker } from 'node:worker_threads';
import { AbortError } from '../api/errors.js';
import { BUFFER_STEP, type NdjsonPage } from './ndjson-page.js';
import type { RenderJob, Returned } from './ndjson-worker.js';
import { heldSecrets } from './terminal.js';

declare const __NDJSON_WORKER__: string | undefined;

/**
 * The worker's heap: its young generation held small (it makes a page's garbage and drops it),
 * which a worker, unlike the main thread, can be given when it is made.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };
/** Buffers of answers kept for reuse: more than a window of pages holds at once. */
const KEEP = 16;

/** A page made on the worker: `release` once its lines are written, so that their buffer is used again. */
export type MadePage = NdjsonPage & { release?: () => void };

type Answer = { id: number; input: ArrayBuffer; page?: NdjsonPage };

/**
 * Every buffer crosses between the threads by transfer and comes back to be used again: a
 * new ArrayBuffer a page, on either side, is memory outside V8's heap that a thread which makes
 * little garbage of its own gives back late (V8 collects for it at 64 MB of such memory), and
 * made the peak of a 100,000-order list 134 MB against 85 without the worker.
 */
export class PageRenderer {
  readonly #worker: Worker | undefined;
  readonly #waiting = new Map<number, (page: NdjsonPage | undefined) => void>();
  readonly #inputs: ArrayBuffer[] = [];
  #next = 0;
  #closed = false;
  #failed = false;

  constructor() {
    const code = typeof __NDJSON_WORKER__ === 'string' ? __NDJSON_WORKER__ : undefined;
    if (code === undefined) return;
    const worker = new Worker(code, { eval: true, resourceLimits: WORKER_LIMITS });
    worker.on('message', (answer: Answer) => {
      if (this.#inputs.length < KEEP) this.#inputs.push(answer.input);
      const resolve = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      resolve?.(answer.page);
    });
    const fail = () => {
      this.#failed = true;
      for (const resolve of this.#waiting.values()) resolve(undefined);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    this.#worker = worker;
  }

  /**
   * The page of an answer's bytes (copied: the caller may reuse them at once), or undefined when
   * the caller is to make it (no worker, or not a page of a list: ./ndjson-page.ts).
   */
  render(bytes: Buffer, rootKey: string): Promise<MadePage | undefined> {
    if (this.#closed) return Promise.reject(new AbortError());
    const worker = this.#worker;
    if (!worker || this.#failed) return Promise.resolve(undefined);
    const id = this.#next++;
    const at = this.#inputs.findIndex((store) => store.byteLength >= bytes.length);
    const store =
      at >= 0
        ? (this.#inputs.splice(at, 1)[0] as ArrayBuffer)
        : new ArrayBuffer(Math.ceil(bytes.length / BUFFER_STEP) * BUFFER_STEP);
    bytes.copy(new Uint8Array(store));
    const job: RenderJob = { id, bytes: store, length: bytes.length, rootKey, secrets: heldSecrets() };
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (page) => {
        if (this.#closed) reject(new AbortError());
        else resolve(page && { ...page, release: () => this.#give(page.lines.buffer as ArrayBuffer) });
      });
      worker.postMessage(job, [store]);
    });
  }

  #give(store: ArrayBuffer): void {
    if (!this.#closed && !this.#failed)
      this.#worker?.postMessage({ give: store } satisfies Returned, [store]);
  }

  /** Ends the worker; pages still being made are abandoned (their promises reject). */
  close(): void {
    this.#closed = true;
    for (const resolve of this.#waiting.values()) resolve(undefined);
    this.#waiting.clear();
    void this.#worker?.terminate();
  }
}

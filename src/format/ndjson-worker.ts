// The worker thread of ./page-renderer.ts: pages of a list in, their -o ndjson lines out. Built
// as a script of its own (scripts/build.mjs), which the renderer runs from a string. The buffers
// go back and forth and are used again (./page-renderer.ts says why).

import { parentPort } from 'node:worker_threads';
import { BUFFER_STEP, ndjsonTextOfBytes } from './ndjson-page.js';
import { hideSecret } from './terminal.js';

export interface RenderJob {
  id: number;
  /** The answer's bytes are its first `length`; the buffer comes back with the answer. */
  bytes: ArrayBuffer;
  length: number;
  rootKey: string;
  /** The secrets the main thread holds (./terminal.ts): masked here as there. */
  secrets: string[];
}

/** A buffer of lines the main thread has written: this thread may fill it again. */
export interface Returned {
  give: ArrayBuffer;
}

/** Buffers of lines kept for reuse: more than a window of pages holds at once. */
const KEEP = 16;

const free: ArrayBuffer[] = [];

parentPort?.on('message', (message: RenderJob | Returned) => {
  if ('give' in message) {
    if (free.length < KEEP) free.push(message.give);
    return;
  }
  const job = message;
  for (const secret of job.secrets) hideSecret(secret);
  const made = ndjsonTextOfBytes(Buffer.from(job.bytes, 0, job.length), job.rootKey);
  if (!made) {
    parentPort?.postMessage({ id: job.id, input: job.bytes }, [job.bytes]);
    return;
  }
  const { text, ...page } = made;
  const size = Buffer.byteLength(text, 'utf8');
  const at = free.findIndex((store) => store.byteLength >= size);
  const store =
    at >= 0
      ? (free.splice(at, 1)[0] as ArrayBuffer)
      : new ArrayBuffer(Math.ceil(size / BUFFER_STEP) * BUFFER_STEP);
  Buffer.from(store).write(text, 'utf8');
  parentPort?.postMessage(
    { id: job.id, input: job.bytes, page: { ...page, lines: new Uint8Array(store, 0, size) } },
    [job.bytes, store],
  );
});

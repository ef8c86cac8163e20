// Reading what a user hands a command (a batch file, stdin) with a bound in bytes: read chunk by
// chunk and abandoned as soon as it passes the bound, so that a file or pipe of any size never
// fills the memory before it is checked (issue 34 §4). Files are streamed too: a pipe or a
// process substitution (`<(…)`) has no size to ask first.

import { createReadStream } from 'node:fs';
import { UsageError } from '../errors.js';

/** A batch's input (--file, or stdin): far more rows than any batch runs, far less than the memory. */
export const BATCH_INPUT_BYTES = 32 * 1024 * 1024;

export async function readBounded(
  source: string | NodeJS.ReadableStream,
  o: { name: string; limit: number; signal?: AbortSignal; hint?: string },
): Promise<string> {
  const stream = typeof source === 'string' ? createReadStream(source) : source;
  if (o.signal) {
    const { addAbortSignal } = await import('node:stream');
    addAbortSignal(o.signal, stream as NodeJS.ReadableStream & import('node:stream').Readable);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > o.limit) {
      (stream as { destroy?: () => void }).destroy?.();
      throw new UsageError(
        `${o.name} is larger than ${o.limit / 1024 / 1024} MB: it was not read further and nothing was sent`,
        { hint: o.hint ?? 'split it into smaller files and run each' },
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

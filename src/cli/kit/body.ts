// Request bodies given as files (--file order.json, or - for stdin): read whole, checked for
// depth, parsed, and checked for their root key before anything is sent. What is under the
// root key is the service's business.

import { parseExactJson } from '../../domain/exact-json.js';
import { jsonNestingDepth } from '../../domain/json-size.js';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export async function readBodyFile(
  rt: Runtime,
  path: string,
  rootKey: string,
): Promise<Record<string, unknown>> {
  const name = path === '-' ? 'stdin' : path;
  let text: string;
  try {
    text =
      path === '-'
        ? await readStream(rt.io.stdin, rt.signal)
        : await (await import('node:fs/promises')).readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const depth = jsonNestingDepth(text, 10_000);
  if (depth > MAX_DEPTH) {
    throw new UsageError(
      `${name} nests deeper than ${MAX_DEPTH} levels (it goes ${depth > 10_000 ? 'over 10000' : depth} deep); no ${rootKey} is that deep`,
      { hint: `give {"${rootKey}": {…}} with the fields the service expects` },
    );
  }
  let body: unknown;
  try {
    // Numbers stay their source text and are sent with exactly those digits (src/api/client.ts).
    body = parseExactJson(text);
  } catch (err) {
    throw new UsageError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UsageError(`${name} must hold a JSON object, not ${kindOf(body)}`, {
      hint: `wrap the fields in {"${rootKey}": {…}}, as the service expects`,
    });
  }
  const inner = (body as Record<string, unknown>)[rootKey];
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    throw new UsageError(`${name} has no root key "${rootKey}"`, {
      hint: `wrap the fields in {"${rootKey}": {…}}, as the service expects`,
    });
  }
  return inner as Record<string, unknown>;
}

/** Reads a stream to its end; Ctrl-C (the signal) ends the wait, as at a prompt. */
export async function readStream(stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  if (signal) {
    // Destroys the stream on Ctrl-C, at once when it came already: a terminal left open would
    // keep the process alive after the command has ended.
    const { addAbortSignal } = await import('node:stream');
    addAbortSignal(signal, stream as NodeJS.ReadableStream & import('node:stream').Readable);
  }
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** No request body the service takes nests anywhere near this deep. */
export const MAX_DEPTH = 32;

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

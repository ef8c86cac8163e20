// Request bodies given as files (--file order.json, or - for stdin): read whole, parsed,
// and checked for their root key before anything is sent.

import { UsageError } from '../api/errors.js';
import type { Runtime } from './runtime.js';

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
        ? await readStream(rt.io.stdin)
        : await (await import('node:fs/promises')).readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
  const inner = (body as Record<string, unknown> | null)?.[rootKey];
  if (typeof body !== 'object' || body === null || typeof inner !== 'object' || inner === null) {
    throw new UsageError(`${name} has no root key "${rootKey}"`, {
      hint: `wrap the fields in {"${rootKey}": {…}}, as the service expects`,
    });
  }
  return inner as Record<string, unknown>;
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

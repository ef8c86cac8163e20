// The payment links this machine sent, as the service answered each: the service keeps no record
// of a link it sent (docs/decisions.md, "Act on many, once"), so `orders timeline` can say one
// was sent only from here (against the emulator, from its outbox). One JSON line a link in
// STATE/sent-links.ndjson (0600), with the API base it went to: another environment's orders
// of the same id are not mixed in.

import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../../domain/state-dir.js';
import type { Runtime } from '../runtime/runtime.js';

export interface SentLink {
  order_id: number;
  channel: 'email' | 'sms';
  to: string;
  /** When the service says it sent it (its message's sent_at), else when it answered. */
  at: string;
  base_url: string;
}

const fileOf = (env: Record<string, string | undefined>) => join(stateDir(env), 'sent-links.ndjson');

/** Records a link the service said it sent; a failure to write is a warning (the link went). */
export async function recordSent(rt: Runtime, sent: Omit<SentLink, 'base_url'>): Promise<void> {
  try {
    const ctx = await rt.context();
    const line = `${JSON.stringify({ ...sent, base_url: ctx.baseUrl ?? '' })}\n`;
    await mkdir(stateDir(rt.env), { recursive: true, mode: 0o700 });
    await appendFile(fileOf(rt.env), line, { mode: 0o600 });
  } catch (err) {
    rt.info(
      `warning: the link was sent, but could not be noted for orders timeline: ${(err as Error).message}`,
    );
  }
}

/** The links this machine sent for the order, on the environment's API base. */
export async function sentLinks(rt: Runtime, orderId: number): Promise<SentLink[]> {
  const ctx = await rt.context();
  let text: string;
  try {
    text = await readFile(fileOf(rt.env), 'utf8');
  } catch {
    return [];
  }
  const found: SentLink[] = [];
  for (const line of text.split('\n')) {
    try {
      const s = JSON.parse(line) as SentLink;
      if (s.order_id === orderId && s.base_url === (ctx.baseUrl ?? '') && typeof s.at === 'string')
        found.push(s);
    } catch {
      // A line cut by a crash: the others still count.
    }
  }
  return found;
}

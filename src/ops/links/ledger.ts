// Messages whose outcome is unknown, per service, order and kind (issue 33 §4). A message leaves
// nothing the service shows, so a send whose answer was lost may have gone: it is noted here,
// outside any batch's journal, before the request goes out ("started", synced), and settled
// ("sent") once the service answered and the result was handed on. A later send of that kind to
// that order — by any id list, a single send or a retry loop — is refused (exit 10) while it is
// unsettled, unless --resend-in-doubt. STATE/messages.ndjson, 0600, one JSON line a change.

import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../../domain/state-dir.js';
import { InDoubtError } from '../../errors.js';
import { serviceOf } from '../batch/service.js';
import type { Runtime } from '../runtime/runtime.js';

interface Line {
  service: string;
  order_id: number;
  channel: 'email' | 'sms';
  state: 'started' | 'sent' | 'failed';
  /** started: the send's identity (Idempotency-Key), the same when it is sent again. */
  identity?: string;
  at: string;
}

const fileOf = (rt: Runtime) => join(stateDir(rt.env), 'messages.ndjson');

/** The last state of each (service, channel, order), read once a process. */
let known: Map<string, Line> | undefined;

async function load(rt: Runtime): Promise<Map<string, Line>> {
  if (known) return known;
  const map = new Map<string, Line>();
  const text = await readFile(fileOf(rt), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  for (const raw of text.split('\n')) {
    try {
      const line = JSON.parse(raw) as Line;
      if (typeof line.order_id === 'number') map.set(slot(line.service, line.channel, line.order_id), line);
    } catch {
      // A line cut by a crash: the others still count.
    }
  }
  known = map;
  return map;
}

const slot = (service: string, channel: string, orderId: number) => `${service}\n${channel}\n${orderId}`;

async function note(rt: Runtime, line: Line, sync: boolean): Promise<void> {
  await mkdir(stateDir(rt.env), { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(line)}\n`;
  if (sync) {
    const file = await open(fileOf(rt), 'a', 0o600);
    try {
      await file.appendFile(text);
      await file.datasync();
    } finally {
      await file.close();
    }
  } else {
    await appendFile(fileOf(rt), text, { mode: 0o600 });
  }
  (await load(rt)).set(slot(line.service, line.channel, line.order_id), line);
}

export interface MessageSend {
  /** The Idempotency-Key to send: the unsettled send's own when this sends it again. */
  identity: string;
  /** The service answered and the result was handed on: no longer in doubt. */
  sent(): Promise<void>;
  /** The service refused it (nothing was sent): no longer in doubt. */
  failed(): Promise<void>;
}

/**
 * Before a message goes out: refused while an earlier send of this kind to this order is in
 * doubt (unless `resend`); else noted started. The caller settles it.
 */
export async function startMessage(
  rt: Runtime,
  orderId: number,
  channel: 'email' | 'sms',
  resend: boolean,
  proposed: string = randomUUID(),
): Promise<MessageSend> {
  const service = await serviceOf(rt);
  const last = (await load(rt)).get(slot(service, channel, orderId));
  if (last?.state === 'started' && !resend) {
    throw new InDoubtError(
      `an earlier send of the ${channel === 'email' ? 'e-mail' : 'SMS'} link of order ${orderId} (${last.at}) may have gone: its answer was lost; it was not sent again`,
      {
        hint: 'the service keeps no record of a message: ask the customer, then run with --resend-in-doubt to send it again',
      },
    );
  }
  const identity = last?.state === 'started' && last.identity !== undefined ? last.identity : proposed;
  const line = (state: Line['state']): Line => ({
    service,
    order_id: orderId,
    channel,
    state,
    ...(state === 'started' ? { identity } : {}),
    at: new Date().toISOString(),
  });
  await note(rt, line('started'), true);
  return {
    identity,
    sent: () => note(rt, line('sent'), false),
    failed: () => note(rt, line('failed'), false),
  };
}

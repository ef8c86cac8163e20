// The emails and SMS the emulator "sent" (payment links, customer notifications): kept in
// memory, newest first, emptied by a reset; read with GET /__emulator/outbox (billing
// emulator outbox).

import { randomBytes } from 'node:crypto';
import { type AdminReply, HttpError } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';

export interface OutboxMessage {
  id: string;
  /** What the message is about: a customer notification (billing/notifications.ts); absent for payment links. */
  kind?: string;
  channel: 'email' | 'sms';
  to: string;
  /** Emails only. */
  subject: string | null;
  body: string;
  link: string;
  order_id: number;
  profile_id: number;
  sent_at: string;
}

/** Older messages are dropped past this many. */
export const OUTBOX_LIMIT = 1000;

const outboxes = new WeakMap<EmulatorState, OutboxMessage[]>();

/** Newest first. */
export function outboxOf(state: EmulatorState): readonly OutboxMessage[] {
  return outboxes.get(state) ?? [];
}

export function deliverToOutbox(
  state: EmulatorState,
  message: Omit<OutboxMessage, 'id' | 'sent_at'>,
): OutboxMessage {
  const sent: OutboxMessage = {
    id: `msg_${randomBytes(8).toString('hex')}`,
    ...message,
    sent_at: state.nowIso(),
  };
  const box = outboxes.get(state) ?? [];
  box.unshift(sent);
  box.length = Math.min(box.length, OUTBOX_LIMIT);
  outboxes.set(state, box);
  return sent;
}

export function clearOutbox(state: EmulatorState): void {
  outboxes.delete(state);
}

/** GET /__emulator/outbox; undefined when the path is another one. */
export function outboxAdmin(state: EmulatorState, method: string, path: string): AdminReply | undefined {
  if (path !== '/__emulator/outbox') return undefined;
  if (method !== 'GET') {
    throw new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: 'GET' } });
  }
  return { status: 200, body: { messages: outboxOf(state) } };
}

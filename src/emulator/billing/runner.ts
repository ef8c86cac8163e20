// The emulator's clock runner: everything that falls due up to a time, in the order it
// falls due, with the clock moved to each moment so that payments, webhooks (occurred_at)
// and emails carry the time they happened. What falls due:
//   charge   a scheduled payment of an active order is charged (collect.ts); of a paused
//            or suspended order it is skipped, never charged later; of an ended order too
//   retry    a soft-declined payment of a failed order is charged again
//   restart  a paused order with a restart date resumes
//   notice   the customer emails with a period (notifications.ts)
// Orders waiting for their first payment, failed and still retrying, or in review are not
// charged: their payments wait. A live order left failed after its last retry has stopped
// collecting: its payments are skipped. Each piece of work changes what it acted on, so it
// is never found again; after each, that order's work is worked out afresh (a retry, the
// next billing event, created when the last one was charged or skipped).

import { FINAL_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { cardExpiresAt } from '../gateway/cards.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, ScheduledPayment } from '../model/types.js';
import { collect, describeOutcome } from './collect.js';
import { resume } from './lifecycle.js';
import {
  CARD_EXPIRY_NOTICE_BEFORE_MS,
  type NoticeKind,
  type Notifier,
  PENDING_REMINDER_AFTER_MS,
  RENEWAL_NOTICE_BEFORE_MS,
} from './notifications.js';
import { closeSchedule, completeIfDone, extendSchedule, hasSchedule, openEntries } from './plan.js';
import { MinHeap } from './queue.js';

export interface Ran {
  at: string;
  order_id: number;
  scheduled_payment_id: number | null;
  /** charged, declined, skipped, resumed, notified */
  action: string;
  detail: string;
  /** The order's status afterwards. */
  status: OrderStatus;
}

type Kind = 'restart' | 'notice' | 'retry' | 'charge';
/** At the same moment: a restart first, then notices, retries and charges. */
const RANK: Record<Kind, number> = { restart: 0, notice: 1, retry: 2, charge: 3 };

interface Work {
  at: number;
  kind: Kind;
  orderId: number;
  entryId: number;
  notice?: { kind: NoticeKind; key: string };
  version: number;
}

const earlier = (a: Work, b: Work) =>
  a.at !== b.at
    ? a.at < b.at
    : RANK[a.kind] !== RANK[b.kind]
      ? RANK[a.kind] < RANK[b.kind]
      : a.orderId !== b.orderId
        ? a.orderId < b.orderId
        : a.entryId < b.entryId;

/** Statuses whose due payments are settled when they fall due (charged or skipped). */
const SETTLED_WHEN_DUE: readonly OrderStatus[] = [
  'active',
  'paused',
  'suspended',
  'cancelled',
  'complete',
  'rejected',
];
/** Statuses whose customer hears about the stored card's expiry. */
const CARD_WATCHED: readonly OrderStatus[] = ['active', 'paused', 'failed', 'suspended'];

/** Guards against a piece of work that would not change what it acts on. */
const MAX_STEPS = 5_000_000;

/**
 * Runs what falls due up to `untilMs` (of one order, or of all) and leaves the clock at
 * `untilMs` (never moving it back). Returns what ran, in order.
 */
export function runDue(state: EmulatorState, notifier: Notifier, untilMs: number, only?: Order): Ran[] {
  const queue = new MinHeap<Work>(earlier);
  const versions = new Map<number, number>();
  const plan = (order: Order) => {
    const version = versions.get(order.id) ?? 0;
    for (const work of workOf(state, order, untilMs)) queue.push({ ...work, version });
  };
  for (const order of only ? [only] : state.orders.values()) plan(order);

  const ran: Ran[] = [];
  for (let steps = 0; queue.size > 0; steps++) {
    if (steps > MAX_STEPS) throw new Error('the clock runner did not settle');
    const work = queue.pop() as Work;
    if (work.version !== (versions.get(work.orderId) ?? 0)) continue;
    const order = state.orders.get(work.orderId);
    if (!order) continue;
    // Work that is overdue (the clock was not advanced through it) runs now.
    const atMs = Math.max(work.at, state.now());
    moveClockTo(state, atMs);
    const detail = perform(state, notifier, order, work, atMs);
    if (detail) {
      ran.push({
        at: new Date(atMs).toISOString(),
        order_id: order.id,
        scheduled_payment_id: work.entryId || null,
        ...detail,
        status: order.status,
      });
    }
    versions.set(order.id, (versions.get(order.id) ?? 0) + 1);
    plan(order);
  }
  moveClockTo(state, untilMs);
  return ran;
}

export function moveClockTo(state: EmulatorState, ms: number): void {
  const ahead = ms - state.now();
  if (ahead > 0) state.advanceClock(ahead);
}

function workOf(state: EmulatorState, order: Order, untilMs: number): Omit<Work, 'version'>[] {
  const work: Omit<Work, 'version'>[] = [];
  const add = (at: number, kind: Kind, entryId = 0, notice?: Work['notice']) => {
    if (at <= untilMs) work.push({ at, kind, orderId: order.id, entryId, ...(notice ? { notice } : {}) });
  };
  const notices = order.notices ?? {};
  if (order.status === 'pending' && !notices.pending_reminder) {
    add(Date.parse(order.status_updated_at) + PENDING_REMINDER_AFTER_MS, 'notice', 0, {
      kind: 'pending_reminder',
      key: 'pending_reminder',
    });
  }
  if (!hasSchedule(order)) return work;
  const sub = order.subscription;
  if (order.status === 'paused' && sub.restart_at) add(Date.parse(sub.restart_at), 'restart');

  const liveSince = Date.parse(sub.activated_at ?? order.created_at);
  const entries = state.scheduleOf(order.id);
  const settled = SETTLED_WHEN_DUE.includes(order.status) || stoppedAfterFailure(order, entries);
  for (const entry of entries) {
    const due = Date.parse(entry.due_date);
    if (entry.status === 'scheduled' && settled) add(due, 'charge', entry.id);
    if (entry.status === 'failed' && entry.next_retry_at && order.status === 'failed') {
      add(Date.parse(entry.next_retry_at), 'retry', entry.id);
    }
    const noticeAt = due - RENEWAL_NOTICE_BEFORE_MS;
    if (
      entry.status === 'scheduled' &&
      !entry.renewal_notice_at &&
      order.status === 'active' &&
      order.order_type === 'subscription' &&
      noticeAt >= liveSince
    ) {
      add(noticeAt, 'notice', entry.id, { kind: 'renewal_notice', key: 'renewal_notice' });
    }
  }

  const card = state.customers.get(order.customer_id)?.card;
  const expiresAt = card ? cardExpiresAt(card) : null;
  if (card && expiresAt !== null && CARD_WATCHED.includes(order.status)) {
    const created = Date.parse(order.created_at);
    const before = expiresAt - CARD_EXPIRY_NOTICE_BEFORE_MS;
    const expiring = `card_expiring:${card.expiry}`;
    const expired = `card_expired:${card.expiry}`;
    if (!notices[expiring] && before > created) {
      add(before, 'notice', 0, { kind: 'card_expiring', key: expiring });
    }
    if (!notices[expired] && expiresAt > created) {
      add(expiresAt, 'notice', 0, { kind: 'card_expired', key: expired });
    }
  }
  return work;
}

/**
 * A live order left failed once its retries ran out (it never collected a payment) has
 * stopped collecting, like a suspended one; one still retrying, or never live, waits.
 */
function stoppedAfterFailure(order: Order, entries: readonly ScheduledPayment[]): boolean {
  return (
    order.status === 'failed' &&
    Boolean(order.subscription?.activated_at) &&
    !entries.some((e) => e.status === 'failed' && e.next_retry_at)
  );
}

type Detail = Pick<Ran, 'action' | 'detail'>;

function perform(
  state: EmulatorState,
  notifier: Notifier,
  order: Order,
  work: Work,
  atMs: number,
): Detail | undefined {
  const entry = work.entryId ? state.scheduledPayments.get(work.entryId) : undefined;
  switch (work.kind) {
    case 'restart':
      resume(state, notifier, order);
      return { action: 'resumed', detail: 'scheduled restart date reached' };
    case 'notice':
      return notice(state, notifier, order, work, entry);
    case 'retry':
    case 'charge':
      if (!entry) return undefined;
      if (order.status === 'active' || work.kind === 'retry') {
        const collected = collect(state, notifier, order, entry, atMs);
        const what = work.kind === 'retry' ? `retry ${(entry.attempts ?? 1) - 1}: ` : '';
        return {
          action: collected.outcome.kind === 'approve' ? 'charged' : 'declined',
          detail: what + describeOutcome(collected, order.currency),
        };
      }
      return skipDue(state, order, entry);
  }
}

function skipDue(state: EmulatorState, order: Order, entry: ScheduledPayment): Detail {
  if (FINAL_STATUSES.includes(order.status)) {
    // An order that ended without its schedule being closed (seeded data, for one).
    const left = openEntries(state, order).length;
    closeSchedule(state, order, `not collected: the order is ${order.status}`);
    return { action: 'skipped', detail: `${left} payment(s) not collected: the order is ${order.status}` };
  }
  entry.status = 'skipped';
  entry.note = `fell due while the order was ${order.status}: not charged`;
  extendSchedule(state, order);
  completeIfDone(state, order);
  return { action: 'skipped', detail: `${entry.amount} ${entry.currency} ${entry.note}` };
}

function notice(
  state: EmulatorState,
  notifier: Notifier,
  order: Order,
  work: Work,
  entry: ScheduledPayment | undefined,
): Detail | undefined {
  const kind = work.notice?.kind;
  if (!kind) return undefined;
  const at = state.nowIso();
  if (kind === 'renewal_notice') {
    if (!entry) return undefined;
    entry.renewal_notice_at = at;
  } else {
    order.notices = { ...order.notices, [work.notice?.key ?? kind]: at };
  }
  const card = state.customers.get(order.customer_id)?.card ?? undefined;
  const sent = notifier.send(order, kind, {
    ...(entry ? { next: entry } : {}),
    ...(card ? { card: { last4: card.last4, expiry: card.expiry } } : {}),
  });
  return { action: 'notified', detail: sent ? `${kind} email to ${sent.to}` : `${kind}: no email address` };
}

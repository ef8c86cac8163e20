// The moves an order makes by the emulator's own rules, for POST /__emulator/orders/{id}/status
// (and so `billing webhooks trigger`): each is made the way the rule makes it (a first payment
// approved or declined at the gateway, a scheduled payment charged, pause, resume, cancel), so
// the order's status, its payments, the outbox and the webhooks agree. A status the rules do
// not reach from the order's is refused, saying what would reach it.

import { fromMinor, toMinor } from '../../domain/money.js';
import type { OrderStatus } from '../../domain/orders.js';
import { storedCardOutcome } from '../gateway/cards.js';
import { approveFirstPayment, declineFirstPayment } from '../gateway/payment.js';
import { HttpError } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, ScheduledPayment } from '../model/types.js';
import { collect, hasCollected } from './collect.js';
import { pause, resume } from './lifecycle.js';
import type { Notifier } from './notifications.js';
import { hasSchedule, isInstalment, openEntries, sortedSchedule } from './plan.js';

/** What a move may depend on: the order's kind, and whether it has collected a payment by then. */
interface Facts {
  schedule: boolean;
  instalment: boolean;
  collected: boolean;
}

interface Move {
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** The rule, as the refusal names it. */
  how: string;
  when?: (facts: Facts) => boolean;
  /** A charge of the customer's stored card: one that must be approved, or one declined on purpose. */
  charge?: 'approved' | 'declined';
  make: (state: EmulatorState, notifier: Notifier, order: Order) => void;
}

const WAITING: readonly OrderStatus[] = ['draft', 'pending'];
const firstPayment = (f: Facts) => !f.collected;
const scheduled = (f: Facts) => f.schedule;
const scheduledAndCollected = (f: Facts) => f.schedule && f.collected;

const MOVES: readonly Move[] = [
  {
    from: ['draft'],
    to: 'pending',
    how: 'a payment link is sent',
    make: (state, _n, order) => state.setOrderStatus(order, 'pending'),
  },
  {
    from: [...WAITING, 'failed'],
    to: 'active',
    how: 'the first payment is approved',
    when: firstPayment,
    make: (state, _n, order) => void approveFirstPayment(state, order),
  },
  {
    from: WAITING,
    to: 'failed',
    how: 'the first payment is declined (soft)',
    when: firstPayment,
    make: (state, _n, order) => void declineFirstPayment(state, order, 'failed'),
  },
  {
    from: [...WAITING, 'failed'],
    to: 'rejected',
    how: 'the first payment is declined (hard)',
    when: firstPayment,
    make: (state, _n, order) => void declineFirstPayment(state, order, 'rejected'),
  },
  {
    from: ['active'],
    to: 'failed',
    how: 'a scheduled payment is declined (soft)',
    charge: 'declined',
    when: scheduled,
    make: (state, notifier, order) => declined(state, notifier, order, 'soft'),
  },
  {
    from: ['active', 'failed', 'suspended'],
    to: 'rejected',
    how: 'a scheduled payment is declined (hard)',
    charge: 'declined',
    when: scheduledAndCollected,
    make: (state, notifier, order) => declined(state, notifier, order, 'hard'),
  },
  {
    from: ['failed'],
    to: 'suspended',
    how: 'the last retry of a declined scheduled payment is declined too',
    charge: 'declined',
    when: scheduledAndCollected,
    make: (state, notifier, order) => {
      for (let n = 0; n < 10 && order.status === 'failed'; n++) declined(state, notifier, order, 'soft');
    },
  },
  {
    from: ['failed', 'suspended'],
    to: 'active',
    how: 'the declined scheduled payment is collected',
    charge: 'approved',
    when: scheduledAndCollected,
    make: (state, notifier, order) => charged(state, notifier, order),
  },
  {
    from: ['active'],
    to: 'review',
    how: 'a scheduled payment is overpaid',
    charge: 'approved',
    when: scheduled,
    make: (state, notifier, order) => charged(state, notifier, order, 1n),
  },
  {
    from: ['active'],
    to: 'complete',
    how: 'the last instalment is collected',
    charge: 'approved',
    when: (f) => f.instalment,
    make: (state, notifier, order) => {
      for (let n = 0; n < 1000 && order.status === 'active'; n++) charged(state, notifier, order);
    },
  },
  {
    from: ['active'],
    to: 'complete',
    how: 'the merchant completes a single payment order that has collected its payment',
    when: (f) => !f.schedule && f.collected,
    make: (state, _n, order) => state.setOrderStatus(order, 'complete'),
  },
  {
    from: ['active'],
    to: 'paused',
    how: 'the merchant pauses it',
    when: scheduled,
    make: (state, notifier, order) => pause(state, notifier, order),
  },
  {
    from: ['paused'],
    to: 'active',
    how: 'the merchant resumes it',
    make: (state, notifier, order) => resume(state, notifier, order),
  },
  {
    from: ['draft', 'pending', 'registered', 'active', 'paused', 'failed', 'suspended', 'review'],
    to: 'cancelled',
    how: 'the merchant cancels it',
    make: (state, _n, order) => state.setOrderStatus(order, 'cancelled'),
  },
];

/**
 * Brings the order to `to` by the shortest way the rules allow, each step made as its rule
 * makes it (so each raises its own event); the statuses it went through. 409 when no way
 * leads there (nothing changed).
 */
export function moveOrder(
  state: EmulatorState,
  notifier: Notifier,
  order: Order,
  to: OrderStatus,
): OrderStatus[] {
  if (order.status === to) return [];
  const path = findPath(state, order, to);
  if (path === null) {
    throw new HttpError(
      409,
      `order ${order.id} is ${order.status}: ${noWay(order, to)}; ${possibleMoves(state, order)}`,
    );
  }
  const through: OrderStatus[] = [];
  for (const move of path) {
    move.make(state, notifier, order);
    through.push(order.status);
    // A charge may be answered otherwise than the rule needs (the customer's card): stop there.
    if (order.status !== move.to) {
      state.markChanged();
      throw new HttpError(
        409,
        `order ${order.id} is now ${order.status}, not ${move.to}: ${move.how} did not happen (the charge was answered otherwise)`,
      );
    }
  }
  return through;
}

function factsOf(order: Order): Facts {
  return { schedule: hasSchedule(order), instalment: isInstalment(order), collected: hasCollected(order) };
}

/** The moves the rules allow from the order's status now, for the refusal. */
function possibleMoves(state: EmulatorState, order: Order): string {
  const facts = factsOf(order);
  const moves = MOVES.filter(
    (m) => m.from.includes(order.status) && (!m.when || m.when(facts)) && ready(state, order, m, true),
  );
  if (moves.length === 0) return `no rule moves a ${order.status} order on`;
  return `from ${order.status} it can become ${moves.map((m) => `${m.to} (${m.how})`).join(', ')}`;
}

function findPath(state: EmulatorState, order: Order, to: OrderStatus): Move[] | null {
  const start = factsOf(order);
  type Node = { status: OrderStatus; facts: Facts; path: Move[] };
  const queue: Node[] = [{ status: order.status, facts: start, path: [] }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const node = queue.shift() as Node;
    const key = `${node.status}:${node.facts.collected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const move of MOVES) {
      if (!move.from.includes(node.status) || (move.when && !move.when(node.facts))) continue;
      if (!ready(state, order, move, node.path.length === 0)) continue;
      const path = [...node.path, move];
      if (move.to === to) return path;
      // A first payment approved, or a scheduled one collected, means the order has collected one.
      const collected = node.facts.collected || move.to === 'active' || move.to === 'review';
      queue.push({ status: move.to, facts: { ...node.facts, collected }, path });
    }
  }
  return null;
}

/** What must hold now for the first move (the customer is there to be charged, a card that approves). */
function ready(state: EmulatorState, order: Order, move: Move, first: boolean): boolean {
  if (!first || move.charge === undefined) return true;
  if (!state.customers.get(order.customer_id)) return false;
  return move.charge === 'declined' || approves(state, order);
}

function noWay(order: Order, to: OrderStatus): string {
  const into = MOVES.filter((m) => m.to === to);
  const ways = into.map((m) => `from ${m.from.join(', ')} when ${m.how}`).join('; ');
  const reach =
    into.length === 0 ? `no rule of the emulator moves an order to ${to}` : `${to} is reached ${ways}`;
  return `the emulator's rules do not move a ${order.order_type.replace('_', ' ')} order from ${order.status} to ${to} (${reach})`;
}

/** Whether a charge now would be approved, without using up the customer's decline flag. */
function approves(state: EmulatorState, order: Order): boolean {
  return storedCardOutcome(state, order, state.now(), true).kind === 'approve';
}

/** The entry the next charge is of: a declined one first (its retry), else the next scheduled. */
function nextEntry(state: EmulatorState, order: Order): ScheduledPayment {
  const open = openEntries(state, order);
  const entry =
    open.find((p) => p.status === 'failed') ??
    sortedSchedule(state, order).find((p) => p.status === 'scheduled');
  if (!entry) throw new HttpError(409, `order ${order.id} has no scheduled payment to charge`);
  return entry;
}

/** Charges the next entry now, declined as POST /__emulator/declines makes it: the customer's flag for one charge. */
function declined(state: EmulatorState, notifier: Notifier, order: Order, kind: 'soft' | 'hard'): void {
  const customer = state.customers.get(order.customer_id);
  if (!customer) throw new HttpError(409, `order ${order.id} has no customer to charge`);
  const saved = customer.decline;
  customer.decline = { kind, remaining: 1 };
  try {
    collect(state, notifier, order, nextEntry(state, order), state.now());
  } finally {
    customer.decline = saved ?? null;
  }
}

/** Charges the next entry now, as `execute` does (`extraMinor` above what is due: an overpayment). */
function charged(state: EmulatorState, notifier: Notifier, order: Order, extraMinor = 0n): void {
  const entry = nextEntry(state, order);
  collect(state, notifier, order, entry, state.now(), fromMinor(toMinor(entry.amount) + extraMinor));
}

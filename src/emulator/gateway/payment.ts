// What a card posted to the gateway does to the order: an approved first payment is
// recorded and makes the order active; a decline records a failed payment and moves the
// order to failed (soft) or rejected (hard). Recording goes through payments.ts.

import { randomBytes } from 'node:crypto';
import { checkoutExpired } from '../model/checkout.js';
import { PAYABLE_STATUSES, recordFirstPayment } from '../model/payments.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, Payment, StoredCheckout } from '../model/types.js';
import { cardOutcome, type Outcome } from './cards.js';

export function findCheckout(
  state: EmulatorState,
  checkoutId: string,
): { order: Order; checkout: StoredCheckout } | undefined {
  for (const order of state.orders.values()) {
    if (order.checkout?.id === checkoutId) return { order, checkout: order.checkout };
  }
  return undefined;
}

export function isExpired(state: EmulatorState, checkout: StoredCheckout): boolean {
  return checkoutExpired(checkout, state.now());
}

export function isPayable(order: Order): boolean {
  return PAYABLE_STATUSES.includes(order.status);
}

export function approveFirstPayment(state: EmulatorState, order: Order): Payment {
  const payment = recordFirstPayment(state, order);
  // The steps the interface shows: waiting for the first payment (pending), then live.
  if (order.status === 'draft') state.setOrderStatus(order, 'pending');
  state.setOrderStatus(order, 'active');
  return payment;
}

export function declineFirstPayment(state: EmulatorState, order: Order, to: 'failed' | 'rejected'): Payment {
  const payment = recordFirstPayment(state, order, { status: 'failed' });
  if (order.status === 'draft') state.setOrderStatus(order, 'pending');
  state.setOrderStatus(order, to);
  return payment;
}

/**
 * A card posted for the order's first payment, answered by the card rule (cards.ts): approved,
 * or declined softly (failed) or hard (rejected). The checkout page and the demo's stories use it.
 */
export function payByCard(
  state: EmulatorState,
  order: Order,
  number: string,
): { outcome: Outcome; payment: Payment } {
  const outcome = cardOutcome(number);
  if (outcome.kind === 'approve') return { outcome, payment: approveFirstPayment(state, order) };
  const payment = declineFirstPayment(state, order, outcome.kind === 'soft' ? 'failed' : 'rejected');
  return { outcome, payment };
}

/** A 3-D Secure step waiting for the customer's confirmation. */
export interface Challenge {
  checkoutId: string;
  orderId: number;
}

const challenges = new WeakMap<EmulatorState, Map<string, Challenge>>();

export function openChallenge(state: EmulatorState, challenge: Challenge): string {
  let open = challenges.get(state);
  if (!open) {
    open = new Map();
    challenges.set(state, open);
  }
  // Bounded: an abandoned challenge is forgotten after enough newer ones.
  if (open.size >= 1000) open.delete(open.keys().next().value as string);
  const token = randomBytes(12).toString('hex');
  open.set(token, challenge);
  return token;
}

/** The challenge of this token, once: a second confirmation finds nothing. */
export function takeChallenge(state: EmulatorState, token: string): Challenge | undefined {
  const open = challenges.get(state);
  const challenge = open?.get(token);
  open?.delete(token);
  return challenge;
}

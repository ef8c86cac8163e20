// The card rules of the stand-in gateway: what a charge of a card is answered. One rule for
// every charge the emulator makes — a card posted to the checkout page, the stored card that
// pay_with_card (`billing orders pay`) charges, scheduled payments and their retries — so the
// integration guide's "a card ending 0002 soft-declines, one ending 0069 hard-declines" holds
// everywhere.

import type { EmulatorState } from '../model/state.js';
import type { Order, StoredCard } from '../model/types.js';

/** A charge's answer: approved, or declined softly (may be retried) or hard (retrying will not help). */
export type Outcome = { kind: 'approve' } | { kind: 'soft' | 'hard'; reason: string };

export interface TestCard {
  number: string;
  brand: 'VISA' | 'MASTER' | 'AMEX';
  /** Asks for a 3-D Secure confirmation at the checkout page before the card rule answers. */
  challenge?: true;
  /** For the gateway page and `billing checkout open --help`. */
  what: string;
}

export const SOFT_DECLINE_REASON = 'insufficient funds (a temporary problem: the payment can be retried)';
export const HARD_DECLINE_REASON = 'the card is reported stolen (retrying will not help)';

export const SOFT: Outcome = { kind: 'soft', reason: SOFT_DECLINE_REASON };
export const HARD: Outcome = { kind: 'hard', reason: HARD_DECLINE_REASON };

/** The last digits that decline; any other card approves. */
const DECLINING: ReadonlyMap<string, Outcome> = new Map([
  ['0002', SOFT],
  ['0069', HARD],
]);

/** The card rule: what a charge of the card ending in these digits (a whole number, or its last four) is answered. */
export function cardOutcome(digits: string): Outcome {
  return DECLINING.get(digits.slice(-4)) ?? { kind: 'approve' };
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4200000000000000', brand: 'VISA', what: 'approves' },
  { number: '5454545454545454', brand: 'MASTER', what: 'approves' },
  {
    number: '4000000000000002',
    brand: 'VISA',
    what: 'soft-declines: lack of funds; the order becomes failed',
  },
  {
    number: '4000000000000069',
    brand: 'VISA',
    what: 'hard-declines: stolen card; the order becomes rejected',
  },
  {
    number: '4000000000003220',
    brand: 'VISA',
    challenge: true,
    what: 'asks for a 3-D Secure confirmation, then approves',
  },
];

export function findTestCard(number: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number === number);
}

/** The brand code of a card number by its prefix; '' when unknown. */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTER';
  if (/^3[47]/.test(number)) return 'AMEX';
  return '';
}

/** The first instant after a card's expiry month (MM/YY). */
export function cardExpiresAt(card: StoredCard): number | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(card.expiry);
  if (!match) return null;
  return Date.UTC(2000 + Number(match[2]), Number(match[1]), 1);
}

/**
 * What a charge of this order's customer's stored card at `atMs` is answered (pay_with_card,
 * scheduled payments, retries); first match wins (assumed, the emulator's test rules):
 *   1. the customer's decline flag (POST /__emulator/declines), for its remaining charges;
 *   2. no stored card: approved when the order saved the card it was first paid with
 *      (checkout or payment link), else a soft decline;
 *   3. a stored card past its expiry month: soft decline (the customer can update it);
 *   4. the card rule on its last digits (cardOutcome).
 * `peek` answers without using up a decline flag.
 */
export function storedCardOutcome(state: EmulatorState, order: Order, atMs: number, peek = false): Outcome {
  const customer = state.customers.get(order.customer_id);
  const flag = customer?.decline;
  if (customer && flag) {
    if (!peek && flag.remaining !== null) {
      flag.remaining -= 1;
      if (flag.remaining <= 0) customer.decline = null;
    }
    return flag.kind === 'soft' ? SOFT : HARD;
  }
  const card = customer?.card;
  if (!card) {
    return order.card_details_saved
      ? { kind: 'approve' }
      : { kind: 'soft', reason: 'the customer has no stored card to charge' };
  }
  const expiresAt = cardExpiresAt(card);
  if (expiresAt !== null && atMs >= expiresAt) {
    return { kind: 'soft', reason: `the card ending ${card.last4} expired (${card.expiry})` };
  }
  return cardOutcome(card.last4);
}

// The stand-in gateway's test cards: what each number does when it is posted.

import type { OrderStatus } from '../../domain/orders.js';

export type CardOutcome =
  | { kind: 'approve' }
  | { kind: 'decline'; status: Extract<OrderStatus, 'failed' | 'rejected'>; reason: string }
  | { kind: 'challenge' };

export interface TestCard {
  number: string;
  brand: 'VISA' | 'MASTER' | 'AMEX';
  outcome: CardOutcome;
  /** For the gateway page and `billing checkout open --help`. */
  what: string;
}

export const SOFT_DECLINE_REASON = 'insufficient funds (a temporary problem: the payment can be retried)';
export const HARD_DECLINE_REASON = 'the card is reported stolen (retrying will not help)';

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4200000000000000', brand: 'VISA', outcome: { kind: 'approve' }, what: 'approves' },
  { number: '5454545454545454', brand: 'MASTER', outcome: { kind: 'approve' }, what: 'approves' },
  {
    number: '4000000000000002',
    brand: 'VISA',
    outcome: { kind: 'decline', status: 'failed', reason: SOFT_DECLINE_REASON },
    what: 'soft-declines: lack of funds; the order becomes failed',
  },
  {
    number: '4000000000000069',
    brand: 'VISA',
    outcome: { kind: 'decline', status: 'rejected', reason: HARD_DECLINE_REASON },
    what: 'hard-declines: stolen card; the order becomes rejected',
  },
  {
    number: '4000000000003220',
    brand: 'VISA',
    outcome: { kind: 'challenge' },
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

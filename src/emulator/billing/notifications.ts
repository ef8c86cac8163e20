// The customer emails of the interface document's item 9, put in the emulator's outbox,
// each with the order portal link. When they are sent (assumed periods):
//   pending_reminder   3 days after an order became pending, once
//   renewal_notice     7 days before each payment of an active subscription
//   paused / resumed   when the order is paused / resumed (also by a scheduled restart)
//   card_expiring      30 days before the stored card's expiry month ends, once per card
//   card_expired       when the expiry month has ended, once per card
//   soft_decline       at each soft-declined attempt, saying when the next retry is
//   hard_decline       at a hard decline
// A customer without an email address gets nothing (the notice is still marked as done).

import { randomBytes } from 'node:crypto';
import type { NoticeKind } from '../../domain/notices.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, ScheduledPayment } from '../model/types.js';
import { deliverToOutbox, type OutboxMessage } from '../outbox/outbox.js';

const DAY = 86_400_000;
export const PENDING_REMINDER_AFTER_MS = 3 * DAY;
export const RENEWAL_NOTICE_BEFORE_MS = 7 * DAY;
export const CARD_EXPIRY_NOTICE_BEFORE_MS = 30 * DAY;

export type { NoticeKind } from '../../domain/notices.js';

export interface NoticeFacts {
  entry?: ScheduledPayment;
  reason?: string;
  nextRetryAt?: string | null;
  /** The next payment, for renewal and resume notices. */
  next?: ScheduledPayment;
  card?: { last4: string; expiry: string };
}

const day = (iso: string) => iso.slice(0, 10);

/** Sends the notifications of one emulator: needs its origin for the portal links. */
export class Notifier {
  constructor(
    private readonly state: EmulatorState,
    private readonly origin: () => string,
  ) {}

  send(order: Order, kind: NoticeKind, facts: NoticeFacts = {}): OutboxMessage | null {
    const customer = this.state.customers.get(order.customer_id) ?? order.customer;
    if (!customer.email) return null;
    const link = this.portalLink(order);
    const { subject, text } = compose(order, kind, facts);
    return deliverToOutbox(this.state, {
      kind,
      channel: 'email',
      to: customer.email,
      subject,
      body: `Hello ${customer.first_name},\n\n${text}\n\nYour order: ${link}\n`,
      link,
      order_id: order.id,
      profile_id: order.profile_id,
    });
  }

  /** The order's portal address; its secret is made on first use and kept. */
  portalLink(order: Order): string {
    order.portal_token ??= randomBytes(16).toString('hex');
    return `${this.origin()}/portal/${order.portal_token}`;
  }
}

function compose(order: Order, kind: NoticeKind, f: NoticeFacts): { subject: string; text: string } {
  const name = order.invoice_id;
  const money = (p: ScheduledPayment | undefined) => (p ? `${p.amount} ${p.currency}` : '');
  const nextLine = f.next ? ` Your next payment of ${money(f.next)} is on ${day(f.next.due_date)}.` : '';
  switch (kind) {
    case 'pending_reminder':
      return {
        subject: `Reminder: order ${name} is waiting for your payment`,
        text: `your order ${name} (${order.summary.initial_amount} ${order.currency}) is still waiting for its payment. You can pay it from the link below.`,
      };
    case 'renewal_notice':
      return {
        subject: `Your subscription ${name} renews on ${day(f.next?.due_date ?? '')}`,
        text: `your subscription ${name} renews on ${day(f.next?.due_date ?? '')}: ${money(f.next)} will be charged to your stored card.`,
      };
    case 'paused':
      return {
        subject: `Your subscription ${name} is paused`,
        text: `your subscription ${name} is paused. Payments that fall due while it is paused are not charged.`,
      };
    case 'resumed':
      return {
        subject: `Your subscription ${name} is active again`,
        text: `your subscription ${name} has resumed on its billing cycle.${nextLine}`,
      };
    case 'card_expiring':
      return {
        subject: `Your card ending ${f.card?.last4} expires soon`,
        text: `the card ending ${f.card?.last4} that pays for ${name} expires at the end of ${f.card?.expiry}. Update it from the link below to keep your subscription running.`,
      };
    case 'card_expired':
      return {
        subject: `Your card ending ${f.card?.last4} has expired`,
        text: `the card ending ${f.card?.last4} that pays for ${name} has expired (${f.card?.expiry}). Add a new card from the link below.`,
      };
    case 'soft_decline':
      return {
        subject: `We could not take your payment for ${name}`,
        text: `your payment of ${money(f.entry)} for ${name} was declined: ${f.reason}. ${
          f.nextRetryAt
            ? `We will try again on ${day(f.nextRetryAt)}.`
            : 'We have stopped trying; update your card from the link below.'
        }`,
      };
    case 'hard_decline':
      return {
        subject: `Your payment for ${name} was declined`,
        text: `your payment of ${money(f.entry)} for ${name} was declined: ${f.reason}. Retrying will not help: use another card from the link below.`,
      };
  }
}

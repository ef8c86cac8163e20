// billing orders timeline: its description and its code.
// service: its creation, its status change as far as the service shows it (the latest one,
// status_updated_at), each payment (debits, pre-authorisations, captures, refunds, reversals)
// and each scheduled payment. Against the emulator only (a local environment), also the
// webhook deliveries and the e-mails and SMS about the order, from its admin API.

import { getOrder, listOrderPayments, listScheduledPayments } from '../../api/orders.js';
import type { Order, Payment, ScheduledPayment } from '../../api/types.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { NextCharge } from '../../domain/next-charge.js';
import { noticeName } from '../../domain/notices.js';
import { orderStatus } from '../../domain/orders.js';
import { BillingError } from '../../errors.js';
import { writeList } from '../../format/index.js';
import { plural } from '../../format/text.js';
import { adminCall } from '../../ops/emulator-control/admin.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { addition, chargeOf, isSubscription } from '../../ops/orders/view.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { Delivery } from '../emulator/deliveries.run.js';

export const timelineVerb = verb({
  name: 'timeline',
  place: 30,
  summary:
    'everything that happened to an order, oldest first: status, payments, refunds, schedule (and, on the emulator, webhooks and messages)',
  args: [{ name: '<id>', help: ORDER_ARG, id: 'order' }],
  examples: ['billing orders timeline 177', 'billing orders timeline 177 -o ndjson | jq -r .event'],
  help:
    '\nThe service keeps only the latest status change of an order (status_updated_at); earlier\n' +
    'ones are not shown. Against the emulator the webhook deliveries and the e-mails and SMS\n' +
    'about the order are listed too (from its admin API).\n',
  output: 'list',
  moves: 'none',
  words: ['history', 'happened', 'events', 'audit', 'activity'],
});

export default defineCommand(timelineVerb, timeline);

export interface TimelineEvent {
  at: string;
  event: string;
  amount?: string;
  currency?: string;
  detail: string;
  /** What the event is from: order, payment, scheduled_payment, webhook, message, link (sent from here). */
  source: string;
  id?: number | string;
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

export function orderEvents(order: Order): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const invoice = text(order.merchant_invoice_id ?? order.invoice_id);
  if (order.created_at) {
    events.push({
      at: order.created_at,
      event: 'order created',
      detail: invoice ? `invoice ${invoice}` : '',
      source: 'order',
      id: order.id,
    });
  }
  if (order.status_updated_at) {
    events.push({
      at: order.status_updated_at,
      event: `status ${orderStatus(order) || 'unknown'}`,
      // The service keeps no earlier status change: orders timeline --help says so.
      detail: 'latest status change',
      source: 'order',
      id: order.id,
    });
  }
  return events;
}

export function paymentEvents(payments: readonly Payment[]): TimelineEvent[] {
  return payments
    .filter((p) => typeof p.created_at === 'string')
    .map((p) => {
      const of = typeof p.parent_id === 'number' ? ` of payment ${p.parent_id}` : '';
      const why = text(p.failure_reason);
      return {
        at: p.created_at as string,
        event: `${text(p.kind) || 'payment'} ${text(p.status)}`.trim(),
        ...(typeof p.amount === 'string' ? { amount: p.amount } : {}),
        ...(typeof p.currency === 'string' ? { currency: p.currency } : {}),
        detail: `payment ${p.id}${of}${why ? `: ${why}` : ''}`,
        source: 'payment',
        id: p.id,
      };
    });
}

/**
 * Each scheduled payment at its due date; one that will not be charged as the order stands
 * (paused, suspended) says so, and what will really be charged next is an event of its own
 * when no entry holds it yet (the first cycle after a restart), beside the restart itself.
 */
export function scheduleEvents(schedule: readonly ScheduledPayment[], order?: Order): TimelineEvent[] {
  const charge = order ? chargeOf(order, schedule) : undefined;
  const events: TimelineEvent[] = schedule
    .filter((s) => typeof s.due_date === 'string')
    .map((s) => {
      const paidBy = typeof s.payment_id === 'number' ? `, paid by payment ${s.payment_id}` : '';
      const notCharged =
        s.status === 'scheduled' &&
        charge &&
        s.id !== charge.entry_id &&
        !['due', 'retry'].includes(charge.state)
          ? `; not charged: ${notChargedWhy(charge)}`
          : '';
      return {
        at: s.due_date as string,
        event: `scheduled payment ${text(s.status)}`.trim(),
        ...(typeof s.amount === 'string' ? { amount: s.amount } : {}),
        ...(typeof s.currency === 'string' ? { currency: s.currency } : {}),
        detail: `scheduled payment ${s.id}${paidBy}${notCharged}`,
        source: 'scheduled_payment',
        id: s.id,
      };
    });
  if (charge?.state === 'paused_until' && charge.restart_date) {
    events.push({
      at: charge.restart_date,
      event: 'restart',
      detail: 'paused until then; charging goes on on its billing cycle',
      source: 'order',
      ...(order ? { id: order.id } : {}),
    });
    if (charge.at && charge.entry_id === undefined) {
      events.push({
        at: charge.at,
        event: 'next payment',
        ...(charge.amount ? { amount: charge.amount } : {}),
        ...(charge.currency ? { currency: charge.currency } : {}),
        detail: 'the first billing cycle from the restart',
        source: 'scheduled_payment',
      });
    }
  }
  return events;
}

function notChargedWhy(charge: NextCharge): string {
  switch (charge.state) {
    case 'paused_until':
      return `due before the restart on ${charge.restart_date?.slice(0, 10)}`;
    case 'paused':
      return 'the order is paused';
    case 'suspended':
    case 'stopped':
      return 'nothing is charged until the failed payment is collected';
    case 'review':
      return 'waits for the review';
    default:
      return 'not the next payment';
  }
}

interface Message {
  id: string;
  /** A customer notification's kind; absent for a payment link. */
  kind?: string;
  channel: string;
  to: string;
  subject?: string | null;
  order_id: number;
  sent_at: string;
}

/** "pause notice to james@…: Your subscription INV-000149 is paused"; a kind not known by its name. */
export function messageDetail(m: Pick<Message, 'kind' | 'to' | 'subject'>): string {
  const what = noticeName(text(m.kind));
  const subject = text(m.subject);
  return `${what} to ${text(m.to)}${subject ? `: ${subject}` : ''}`;
}

/**
 * The payment links sent for the order: on the emulator its outbox has them (emulatorEvents);
 * elsewhere the service keeps none, so they are those this machine sent (./sent-links.ts).
 */
async function linkEvents(rt: Runtime, orderId: number): Promise<TimelineEvent[]> {
  if ((await rt.context()).kind === 'local') return [];
  const { sentLinks } = await import('../../ops/links/sent.js');
  return (await sentLinks(rt, orderId)).map((s) => ({
    at: s.at,
    event: `link sent by ${s.channel === 'sms' ? 'SMS' : 'e-mail'}`,
    detail: `to ${s.to || 'the customer'} (sent by billing on this machine)`,
    source: 'link',
  }));
}

/** The emulator's webhook deliveries and outbox messages about the order (local environments only). */
async function emulatorEvents(rt: Runtime, orderId: number): Promise<TimelineEvent[]> {
  const ctx = await rt.context();
  if (ctx.kind !== 'local' || !ctx.baseUrl) return [];
  const origin = new URL(ctx.baseUrl).origin;
  const read = async () => {
    const [deliveries, outbox] = await Promise.all([
      adminCall<{ deliveries: Delivery[] }>(origin, 'GET', 'deliveries'),
      adminCall<{ messages: Message[] }>(origin, 'GET', 'outbox'),
    ]);
    const events: TimelineEvent[] = [];
    for (const d of Array.isArray(deliveries.deliveries) ? deliveries.deliveries : []) {
      if (d.order_id !== orderId || typeof d.occurred_at !== 'string') continue;
      const attempts = Array.isArray(d.attempts) ? d.attempts.length : 0;
      events.push({
        at: d.occurred_at,
        event: `webhook ${text(d.event)}`,
        detail: `${text(d.state)} to ${text(d.endpoint)} (${plural(attempts, 'attempt')})`,
        source: 'webhook',
        id: text(d.id),
      });
    }
    for (const m of Array.isArray(outbox.messages) ? outbox.messages : []) {
      if (m.order_id !== orderId || typeof m.sent_at !== 'string') continue;
      // A message without a kind is a payment link: said as what it is, not as "email sent".
      const channel = m.channel === 'sms' ? 'SMS' : text(m.channel) || 'message';
      events.push({
        at: m.sent_at,
        event: m.kind ? `${channel} sent` : `link sent by ${m.channel === 'sms' ? 'SMS' : 'e-mail'}`,
        detail: messageDetail(m),
        source: 'message',
        id: text(m.id),
      });
    }
    return events;
  };
  return (await addition(rt, "the emulator's webhook deliveries and outbox", read)) ?? [];
}

export async function timeline(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const [payments, schedule, emulator, links] = await Promise.all([
    addition(rt, `the payments of order ${orderId}`, () =>
      listOrderPayments(client, orderId, { signal: rt.signal }),
    ),
    isSubscription(order)
      ? addition(rt, `the schedule of order ${orderId}`, () =>
          listScheduledPayments(client, orderId, { signal: rt.signal }),
        )
      : [],
    emulatorEvents(rt, orderId).catch((err: unknown) => {
      if (err instanceof BillingError) return [];
      throw err;
    }),
    linkEvents(rt, orderId),
  ]);
  const events = [
    ...orderEvents(order),
    ...paymentEvents(payments ?? []),
    ...scheduleEvents(schedule ?? [], order),
    ...emulator,
    ...links,
  ];
  // Oldest first; events of the same moment keep the order above (the order, then its payments).
  const at = (e: TimelineEvent) => Date.parse(e.at) || 0;
  const sorted = events.map((e, i) => ({ e, i })).sort((a, b) => at(a.e) - at(b.e) || a.i - b.i);
  await writeList(
    sorted.map((s) => s.e),
    'timeline_event',
    rt.output,
  );
}

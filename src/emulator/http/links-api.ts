// Payment links: POST /orders/{id}/send_email_link, send_sms_link and payment_link (method
// assumed). Each gives the order its portal address, moves a draft order to pending, and
// answers {order, payment_link} (and the message put in the outbox, for email and SMS).

import { randomBytes } from 'node:crypto';
import { orderRecord } from '../model/records.js';
import { HttpError, type Reply } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';
import type { Order } from '../model/types.js';
import { deliverToOutbox } from '../outbox/outbox.js';
import type { ApiRequest, Handlers } from './context.js';
import { orderAt } from './lookups.js';

export function sendEmailLink(request: ApiRequest): Reply {
  return sendLink(request, 'email');
}

export function sendSmsLink(request: ApiRequest): Reply {
  return sendLink(request, 'sms');
}

export function paymentLink({ state, profileId, params, runtime }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  const link = portalLink(state, order, runtime.origin);
  toPending(state, order);
  return { status: 200, body: { payment_link: link, order: orderRecord(order) } };
}

function sendLink({ state, profileId, params, runtime }: ApiRequest, channel: 'email' | 'sms'): Reply {
  const order = orderAt(state, profileId, params[0]);
  const customer = state.findCustomer(profileId, order.customer_id) ?? order.customer;
  const to = channel === 'email' ? customer.email : customer.phone;
  const name = `${customer.first_name} ${customer.last_name}`;
  if (!to) {
    const field = channel === 'email' ? 'email' : 'phone';
    const what = channel === 'email' ? 'email address' : 'phone number';
    throw new HttpError(
      422,
      `customer ${order.customer_id} (${name}) has no ${what}: the payment link cannot be sent by ${channel === 'email' ? 'email' : 'SMS'}`,
      { details: [{ field: `customer.${field}`, message: `the customer has no ${what}` }] },
    );
  }
  const link = portalLink(state, order, runtime.origin);
  const due = `${order.summary.initial_amount} ${order.currency}`;
  const message = deliverToOutbox(state, {
    channel,
    to,
    subject: channel === 'email' ? `Your order ${order.invoice_id}: ${due} to pay` : null,
    body:
      channel === 'email'
        ? `Hello ${customer.first_name},\n\nyour order ${order.invoice_id} is ready. Pay ${due} and see its details here:\n${link}\n`
        : `Order ${order.invoice_id}: pay ${due} at ${link}`,
    link,
    order_id: order.id,
    profile_id: order.profile_id,
  });
  toPending(state, order);
  return { status: 200, body: { order: orderRecord(order), payment_link: link, message } };
}

/** The order's portal address; its secret is made on first use and kept. */
function portalLink(state: EmulatorState, order: Order, origin: string): string {
  if (!order.portal_token) {
    order.portal_token = randomBytes(16).toString('hex');
    order.updated_at = state.nowIso();
  }
  return `${origin}/portal/${order.portal_token}`;
}

function toPending(state: EmulatorState, order: Order): void {
  if (order.status === 'draft') state.setOrderStatus(order, 'pending');
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const LINK_HANDLERS = { sendEmailLink, sendSmsLink, paymentLink } satisfies Handlers;

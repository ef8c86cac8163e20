// The Event document of the interface (spec, "Events"), and the sample order a test event
// carries. Pure: the emulator builds its deliveries with this too.

import { randomBytes } from 'node:crypto';
import { isOrderStatus, STATUS_LABELS } from '../domain/orders.js';

export interface EventDocument {
  id: string;
  event: string;
  occurred_at: string;
  data: {
    previous_status: string | null;
    status: string;
    order: Record<string, unknown>;
  };
  links: {
    order: string;
    payments: string;
    scheduled_payments: string;
  };
}

export interface EventInput {
  id: string;
  event: string;
  /** ISO 8601 UTC with milliseconds. */
  occurredAt: string;
  previousStatus: string | null;
  status: string;
  /** The order in its webhook form, as it was when the event was raised. */
  order: Record<string, unknown>;
  /** API address of the order, e.g. {base_url}/profiles/1/orders/1042. */
  orderUrl: string;
}

/** An opaque delivery id; the event's id is the same string. */
export function newDeliveryId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export function buildEvent(input: EventInput): EventDocument {
  return {
    id: input.id,
    event: input.event,
    occurred_at: input.occurredAt,
    data: {
      previous_status: input.previousStatus,
      status: input.status,
      order: input.order,
    },
    links: {
      order: input.orderUrl,
      payments: `${input.orderUrl}/payments`,
      scheduled_payments: `${input.orderUrl}/scheduled_payments`,
    },
  };
}

/** The order's API address under a v2 base (which ends in /api/v2). */
export function orderUrl(baseUrl: string, profileId: number, orderId: number | string): string {
  return `${baseUrl.replace(/\/+$/, '')}/profiles/${profileId}/orders/${orderId}`;
}

/** The shown transitions, so that a sample event reads like a real one; otherwise unknown. */
const SHOWN_PREVIOUS: Record<string, string> = { pending: 'draft', active: 'pending', paused: 'active' };

export function samplePreviousStatus(status: string): string | null {
  return SHOWN_PREVIOUS[status] ?? null;
}

export const SAMPLE_ORDER_ID = 1000001;

/** A made-up order in the webhook form (what Send test event carries before a real one exists). */
export function sampleOrder(
  status = 'active',
  at: string = new Date().toISOString(),
): Record<string, unknown> {
  const label = isOrderStatus(status) ? STATUS_LABELS[status] : status;
  return {
    id: SAMPLE_ORDER_ID,
    merchant_invoice_id: 'SAMPLE0001',
    order_type: { value: 'single_payment', label: 'Single Payment' },
    status: { value: status, label },
    currency: 'EUR',
    channel: 'ECOM',
    description: 'Sample order (test event)',
    collect_initial_payment: true,
    card_details_saved: 'No',
    initial_amount: '49.90',
    customer_id: 1000001,
    customer: {
      display_customer_id: 'CUS-SAMPLE',
      merchant_customer_id: 'sample-customer',
      first_name: 'Sam',
      last_name: 'Sample',
      full_name: 'Sam Sample',
      email: 'sam.sample@example.com',
      phone: '+10000000000',
      date_of_birth: null,
      street: '1 Example Street',
      city: 'Sampleton',
      state: null,
      postal_code: '00000',
      country: 'IE',
      country_name: 'Ireland',
    },
    order_products: [
      {
        id: 1000001,
        product_id: 1000001,
        name: 'Sample product',
        selection_text: null,
        options: null,
        qty: 1,
        amount: '49.90',
        products_total: '49.90',
        discount_amount: '0.00',
        fee_amount: '0.00',
        tax_amount: '0.00',
        subtotal_amount: '49.90',
        product_discount_id: null,
        product_fee_id: null,
        product_tax_id: null,
      },
    ],
    summary: {
      products_total: '49.90',
      fee_total: '0.00',
      discount_total: '0.00',
      tax_total: '0.00',
      sub_total: '49.90',
      initial_amount: '49.90',
      payment_amount: '49.90',
      tax_type: null,
    },
    tag_list: [],
    created_at: at,
    updated_at: at,
    status_updated_at: at,
  };
}

import { Writable } from 'node:stream';
import type { Output, OutputFormat } from '../../src/format/index.js';

/** A stdout stand-in that keeps what was written. */
export function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

export function output(format: OutputFormat, stream: Writable, extra: Partial<Output> = {}): Output {
  return { format, color: false, stdout: stream, ...extra };
}

export const ANSI = /\x1b\[/;

/** A v2 order as a webhook carries it (data.order). */
export const ORDER = {
  id: 1042,
  merchant_invoice_id: 'INV-1042',
  order_type: { value: 'single_payment', label: 'Single Payment' },
  status: { value: 'active', label: 'Active' },
  currency: 'EUR',
  channel: 'ECOM',
  description: 'Gym, monthly',
  collect_initial_payment: true,
  card_details_saved: 'Yes',
  initial_amount: '49.90',
  customer_id: 7,
  customer: { full_name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' },
  order_products: [
    { id: 1, product_id: 3, name: 'Gym membership', qty: 1, amount: '49.90', subtotal_amount: '49.90' },
    { id: 2, product_id: 4, name: 'Towel', qty: 2, amount: '2.50', subtotal_amount: '5.00' },
  ],
  summary: { products_total: '54.90', fee_total: '0.00', tax_type: null },
  tag_list: ['vip', 'gym'],
  created_at: '2024-05-01T10:20:30.123Z',
  updated_at: '2024-05-02T08:00:00.000Z',
};

/** The version 1 subscription response form (payload.order). */
export const V1_ORDER = {
  id: 77,
  profile_id: 1,
  invoice_id: 'SUB-77',
  customer_id: 12,
  initial_amount: '10',
  description: null,
  note: null,
  total_discount_amount: '0.00',
  total_fee_amount: '0.00',
  total_tax_amount: '0.00',
};

export const ORDERS = [
  ORDER,
  { ...ORDER, id: 1043, merchant_invoice_id: 'INV-1043', status: { value: 'pending', label: 'Pending' } },
  V1_ORDER,
];

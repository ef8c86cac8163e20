// The text of `billing help fields RECORD`: the fields of a record as -o json prints it, with
// their types, so that --query and jq can name them (status is an object: status.value).
// From the interface document; fields it does not show are marked "assumed" and are what the
// emulator sends (docs/decisions.md).

import { EXPANSIONS } from '../domain/expand.js';

type Row = readonly [field: string, type: string, note?: string];

/** What `orders get ID --expand …` adds under the order (docs/contract.md, "Views and batches"). */
const ORDER_VIEW: Row[] = [
  ['payments[]', 'array', 'added by --expand payments (fields: billing help fields payments)'],
  ['payments[].refunded', 'decimal', 'debits and captures: what was refunded of it'],
  ['payments[].left_to_refund', 'decimal', 'debits and captures: what is left to refund'],
  ['next_payment', 'object|null', 'added by --expand next_payment: the next scheduled payment, or null'],
  ['next_payment.due_date', 'time', 'also id, order_id, amount (decimal), currency, status'],
  [
    'next_charge',
    'object',
    'with next_payment, for a subscription: what will really be charged (a paused or suspended order charges nothing as it stands)',
  ],
  [
    'next_charge.state',
    'string',
    'due, retry, paused_until, paused, suspended, stopped, review, none; also at (time), amount, currency, entry_id, restart_date, failed_id',
  ],
];

const ORDER: Row[] = [
  ['id', 'integer'],
  ['merchant_invoice_id', 'string', 'your own id of the order (invoice_id when created)'],
  ['order_type.value', 'string', 'single_payment, subscription, instalment, metered'],
  ['order_type.label', 'string', 'for display: Single Payment'],
  [
    'status.value',
    'string',
    'draft, pending, registered, active, paused, failed, suspended, rejected, review, complete, cancelled',
  ],
  ['status.label', 'string', 'for display: Failed'],
  ['currency', 'string', 'three letters: EUR'],
  ['channel', 'string', 'ECOM'],
  ['description', 'string|null'],
  ['collect_initial_payment', 'boolean'],
  ['card_details_saved', 'string', 'Yes or No'],
  ['initial_amount', 'decimal', 'the amount: --min-amount, --max-amount'],
  ['customer_id', 'integer'],
  ['customer.email', 'string'],
  ['customer.full_name', 'string', 'also first_name, last_name'],
  ['customer.phone', 'string'],
  ['customer.display_customer_id', 'string', 'CUS-000002'],
  ['customer.merchant_customer_id', 'string', 'your own id of the customer'],
  ['customer.country', 'string', 'two letters; also street, city, state, postal_code'],
  ['order_products[]', 'array', 'lines: product_id, name, qty, amount, subtotal_amount, ...'],
  ['summary.initial_amount', 'decimal', 'also products_total, fee_total, tax_total, ...'],
  ['tag_list', 'array'],
  ['created_at', 'time', '--since and --until filter it'],
  ['updated_at', 'time'],
  ['status_updated_at', 'time', '--since/--until with --status (or --by-status-date)'],
  ['restart_date', 'time', "assumed: a paused order's scheduled restart (orders resume --restart-date)"],
  ...ORDER_VIEW,
];

const CUSTOMER: Row[] = [
  ['id', 'integer'],
  ['display_customer_id', 'string', 'CUS-000002'],
  ['merchant_customer_id', 'string', 'your own id of the customer'],
  ['first_name', 'string'],
  ['last_name', 'string'],
  ['full_name', 'string'],
  ['email', 'string'],
  ['phone', 'string'],
  ['date_of_birth', 'day or null'],
  ['street', 'string', 'also city, state (or null), postal_code'],
  ['country', 'string', 'two letters: IE'],
  ['country_name', 'string', 'Ireland'],
  ['card', 'object|null', 'assumed: the stored card {brand, last4, expiry}'],
  ['created_at', 'time', 'assumed'],
  ['updated_at', 'time', 'assumed'],
  ['orders[]', 'array', "added by --expand orders: the customer's orders (billing help fields orders)"],
  [
    'orders[].next_payment',
    'object|null',
    'a subscription that can still charge: its next scheduled payment',
  ],
  ['payments[]', 'array', "added by --expand payments: the payments of the customer's orders, oldest first"],
];

const PRODUCT: Row[] = [
  ['id', 'integer'],
  ['name', 'string'],
  ['description', 'string|null'],
  ['price', 'decimal'],
  ['currency', 'string'],
  ['product_type', 'string', 'single or subscription'],
  ['price_locked', 'boolean', 'assumed'],
  ['tax_percentage', 'number|null', 'assumed'],
  ['created_at', 'time'],
  ['updated_at', 'time'],
];

const PAYMENT: Row[] = [
  ['id', 'integer'],
  ['order_id', 'integer'],
  ['kind', 'string', 'preauthorization, debit, capture, refund, reversal'],
  ['status', 'string', 'succeeded, failed, pending (a plain string, unlike an order)'],
  ['amount', 'decimal'],
  ['currency', 'string'],
  ['parent_id', 'integer|null', 'the payment a capture, refund or reversal is of'],
  ['scheduled_payment_id', 'integer', 'recurring charges only'],
  ['failure_reason', 'string|null'],
  ['created_at', 'time'],
];

export const FIELD_RECORDS = { orders: ORDER, customers: CUSTOMER, products: PRODUCT, payments: PAYMENT };
export type FieldRecord = keyof typeof FIELD_RECORDS;

const INTRO: Record<FieldRecord, string> = {
  orders:
    'Fields of an order, as billing orders get ID -o json prints it (orders list has\n' +
    `the same). --expand ${EXPANSIONS.order.join(',')} adds the last ones, in one more\nrequest each:`,
  customers:
    'Fields of a customer, as billing customers get ID -o json prints it (customers\n' +
    `list has the same). --expand ${EXPANSIONS.customer.join(',')} adds the last ones (reading every\npage of orders):`,
  products: 'Fields of a product (billing products get ID -o json):',
  payments:
    'Fields of a payment (billing payments get ID -o json). The interface document\n' +
    'shows none: these are what the emulator sends (docs/decisions.md).',
};

const EXAMPLES: Record<FieldRecord, string[]> = {
  orders: [
    `billing orders list --query "[?status.value=='failed'].id"`,
    `billing orders list --query "[?customer.email=='anna.schmidt@example.com']"`,
    `billing orders list --query "length([?order_type.value=='subscription'])"`,
    `billing orders get 174 --expand payments --query "payments[].[id, amount]"`,
  ],
  customers: [
    `billing customers list --query "[?country=='IE'].{id: id, email: email}"`,
    `billing customers get 3 --expand payments --query "payments[].[id, amount]"`,
  ],
  products: [`billing products list --query "[?product_type=='subscription'].name"`],
  payments: [`billing payments list --query "[?kind=='refund' && status=='succeeded'].id"`],
};

export function fieldsHelp(record: FieldRecord): string {
  const rows = FIELD_RECORDS[record];
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  const typeWidth = Math.max(...rows.map(([, t]) => t.length)) + 2;

  // Notes wrap at 80 columns, under their own column.
  const at = 2 + width + typeWidth;
  const lines = rows.map(([f, t, note]) =>
    `  ${f.padEnd(width)}${t.padEnd(typeWidth)}${wrap(note ?? '', 80 - at).join(`\n${' '.repeat(at)}`)}`.trimEnd(),
  );
  return (
    `${INTRO[record]}\n\n${lines.join('\n')}\n\n` +
    'decimal: a string like "18.50"; time: ISO 8601 UTC, "2026-11-03T09:12:44.000Z".\n' +
    'JMESPath compares strings for equality only: filter dates and amounts with the\n' +
    'list flags (--since, --until, --min-amount); --query shapes the output.\n' +
    `\nExamples:\n${EXAMPLES[record].map((e) => `  $ ${e}`).join('\n')}\n`
  );
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

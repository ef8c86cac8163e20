import { personName } from '../domain/customers.js';
import type { NextCharge } from '../domain/next-charge.js';
import { orderStatus } from '../domain/orders.js';
import { isRecord } from '../domain/records.js';
import { type ChalkInstance, outcomeStyle, statusStyle } from './color.js';
import { first, formatAmount, formatTimestamp, get, text } from './text.js';

export type ResourceName =
  | 'order'
  | 'customer'
  | 'product'
  | 'payment'
  | 'scheduled_payment'
  | 'refund_result'
  | 'customer_order'
  | 'order_payment'
  | 'timeline_event'
  | 'batch_result'
  | 'environment'
  | 'config_entry';

export interface Column {
  /** lower_snake name: the CSV header. */
  key: string;
  /** What a person reads: the table header and the label of the one-record view. */
  header: string;
  /** Plain text for csv and tsv (and for the table unless `display` is given). Never throws. */
  // biome-ignore lint/suspicious/noExplicitAny: records are whatever the service sent; each value function checks what it reads
  value(record: any): string;
  /** Table text when it differs from `value` (a timestamp shortened to the minute). */
  // biome-ignore lint/suspicious/noExplicitAny: as above
  display?(record: any): string;
  /** Colour for the table, applied to the (possibly truncated) text. */
  // biome-ignore lint/suspicious/noExplicitAny: as above
  style?(text: string, record: any, c: ChalkInstance): string;
  /** Top-level fields this column shows, so the one-record view does not repeat them. */
  fields?: readonly string[];
  /** Only in csv and tsv: the table shows it inside another column (a currency beside its amount). */
  machineOnly?: boolean;
  /**
   * At a terminal too narrow for every column: `keep` a column a person looks things up by
   * (an id, an invoice id, an email, a link), shown whole while another column can give way;
   * `giveUp` N, left out of the table (1 first) before any column is cut. Others are cut.
   */
  keep?: boolean;
  giveUp?: number;
}

function customerName(customer: unknown): string {
  return typeof customer === 'string' ? customer : personName(customer);
}

function currencyOf(record: unknown): string {
  return text(get(record, 'currency'));
}

const id: Column = { key: 'id', header: 'ID', value: (r) => text(get(r, 'id')), fields: ['id'], keep: true };

const created: Column = {
  key: 'created',
  header: 'Created',
  value: (r) => first(get(r, 'created_at'), get(r, 'created')),
  display: (r) => formatTimestamp(first(get(r, 'created_at'), get(r, 'created'))),
  style: (t, _r, c) => c.dim(t),
  fields: ['created_at', 'created'],
};

const statusColumn: Column = {
  key: 'status',
  header: 'Status',
  value: (r) => orderStatus(r),
  style: (t, r, c) => statusStyle(orderStatus(r), c)(t),
  fields: ['status'],
};

const outcomeStatus: Column = {
  ...statusColumn,
  style: (t, r, c) => outcomeStyle(orderStatus(r), c)(t),
};

/**
 * Money as two columns for csv and tsv (`amount` 497.30, `currency` EUR), one for a person
 * ("497.30 EUR"): a spreadsheet sums the first without parsing.
 */
export function moneyColumns(
  key: string,
  header: string,
  // biome-ignore lint/suspicious/noExplicitAny: as in Column
  amountOf: (record: any) => unknown,
  // biome-ignore lint/suspicious/noExplicitAny: as in Column
  currency: (record: any) => string = currencyOf,
  fields: readonly string[] = [key, 'currency'],
): Column[] {
  return [
    {
      key,
      header,
      value: (r) => formatAmount(amountOf(r)),
      display: (r) => formatAmount(amountOf(r), currency(r)),
      fields,
    },
    {
      key: 'currency',
      header: 'Currency',
      value: (r) => currency(r),
      fields: ['currency'],
      machineOnly: true,
    },
  ];
}

const amount = moneyColumns('amount', 'Amount', (r) => get(r, 'amount'));

/** The next payment in a few words, for a column: the date and amount, or why there is none. */
export function chargeShort(charge: NextCharge): string {
  const money = formatAmount(charge.amount, charge.currency ?? '');
  const day = (iso: string | undefined) => formatTimestamp(iso ?? '').slice(0, 10);
  switch (charge.state) {
    case 'due':
    case 'retry':
      return `${formatTimestamp(charge.at ?? '')}  ${money}`;
    case 'paused_until':
      return `${day(charge.at)}  ${money} (paused until ${day(charge.restart_date)})`;
    case 'paused':
      return 'none while paused';
    case 'suspended':
    case 'stopped':
      return 'none until the failed payment is collected';
    case 'review':
      return 'waits for the review';
    default:
      return '';
  }
}

/**
 * The next payment of a subscription (`customers get`): what will really be charged and when
 * (next_charge, src/domain/next-charge.ts), or the scheduled payment's due date when only it is known.
 */
const nextPayment: Column = {
  key: 'next_payment',
  header: 'Next payment',
  value: (r) => {
    const charge = get(r, 'next_charge') as NextCharge | undefined;
    // When nothing will be charged as it stands, why (paused, suspended), not an empty cell.
    return charge ? text(charge.at) || chargeShort(charge) : text(get(r, 'next_payment', 'due_date'));
  },
  display: (r) => {
    const charge = get(r, 'next_charge') as NextCharge | undefined;
    if (charge) return chargeShort(charge);
    const due = get(r, 'next_payment', 'due_date');
    if (!due) return '';
    const next = get(r, 'next_payment');
    return `${formatTimestamp(due)}  ${formatAmount(get(next, 'amount'), text(get(next, 'currency')))}`;
  },
  fields: ['next_payment', 'next_charge'],
};

export const COLUMNS: Record<ResourceName, Column[]> = {
  order: [
    id,
    {
      key: 'invoice_id',
      header: 'Invoice ID',
      value: (r) => first(get(r, 'merchant_invoice_id'), get(r, 'invoice_id')),
      fields: ['merchant_invoice_id', 'invoice_id'],
      keep: true,
    },
    {
      key: 'customer',
      header: 'Customer',
      value: (r) => first(customerName(get(r, 'customer')), get(r, 'customer_id')),
      fields: ['customer_id'],
      // Names, with dates, are the last things a table cuts.
      keep: true,
    },
    {
      key: 'type',
      header: 'Type',
      value: (r) => {
        const type = get(r, 'order_type');
        return isRecord(type) ? first(type.label, type.value) : text(type);
      },
      fields: ['order_type'],
      giveUp: 1,
    },
    statusColumn,
    ...moneyColumns(
      'amount',
      'Amount',
      (r) => get(r, 'initial_amount') ?? get(r, 'summary', 'initial_amount'),
      currencyOf,
      ['initial_amount', 'currency'],
    ),
    created,
  ],
  customer: [
    id,
    {
      key: 'name',
      header: 'Name',
      value: (r) => customerName(r),
      fields: ['full_name', 'name', 'first_name', 'last_name'],
      keep: true,
    },
    { key: 'email', header: 'Email', value: (r) => text(get(r, 'email')), fields: ['email'], keep: true },
    { key: 'phone', header: 'Phone', value: (r) => text(get(r, 'phone')), fields: ['phone'], giveUp: 3 },
    {
      key: 'country',
      header: 'Country',
      value: (r) => first(get(r, 'country'), get(r, 'billing_address', 'country'), get(r, 'country_name')),
      fields: ['country'],
      giveUp: 2,
    },
    { ...created, giveUp: 1 },
  ],
  product: [
    id,
    { key: 'name', header: 'Name', value: (r) => text(get(r, 'name')), fields: ['name'] },
    {
      key: 'type',
      header: 'Type',
      value: (r) => first(get(r, 'product_type'), get(r, 'type'), get(r, 'product_config', 'product_type')),
      fields: ['product_type', 'type'],
    },
    ...moneyColumns(
      'price',
      'Price',
      (r) => get(r, 'price') ?? get(r, 'amount') ?? get(r, 'product_config', 'price'),
      (r) => first(get(r, 'currency'), get(r, 'product_config', 'currency')),
    ),
    created,
  ],
  payment: [
    id,
    { key: 'order_id', header: 'Order ID', value: (r) => text(get(r, 'order_id')), fields: ['order_id'] },
    { key: 'kind', header: 'Kind', value: (r) => first(get(r, 'kind'), get(r, 'type')), fields: ['kind'] },
    outcomeStatus,
    ...amount,
    created,
  ],
  scheduled_payment: [
    id,
    { key: 'due_date', header: 'Due date', value: (r) => text(get(r, 'due_date')), fields: ['due_date'] },
    ...amount,
    outcomeStatus,
  ],
  refund_result: [
    {
      key: 'payment_id',
      header: 'Payment ID',
      value: (r) => text(get(r, 'payment_id')),
      fields: ['payment_id'],
    },
    ...amount,
    outcomeStatus,
    { key: 'refund_id', header: 'Refund ID', value: (r) => text(get(r, 'refund_id')), fields: ['refund_id'] },
    {
      key: 'error',
      header: 'Error',
      value: (r) => first(get(r, 'error'), get(r, 'error', 'message')),
      style: (t, _r, c) => c.red(t),
      fields: ['error'],
    },
  ],
  // An order as `customers get` lists it under the customer: the order's columns (not the
  // customer, not the date), then its next payment.
  get customer_order(): Column[] {
    return [...COLUMNS.order.filter((c) => c.key !== 'customer' && c.key !== 'created'), nextPayment];
  },
  // A payment as `orders get` lists it under the order: with its refunds and what is left.
  order_payment: [
    id,
    { key: 'kind', header: 'Kind', value: (r) => first(get(r, 'kind'), get(r, 'type')), fields: ['kind'] },
    outcomeStatus,
    ...amount,
    {
      key: 'refunded',
      header: 'Refunded',
      value: (r) => formatAmount(get(r, 'refunded')),
      display: (r) => formatAmount(get(r, 'refunded'), currencyOf(r)),
      fields: ['refunded'],
      // Narrow: the amount and what is left to refund say it, whole.
      giveUp: 1,
    },
    {
      key: 'left_to_refund',
      header: 'Left to refund',
      value: (r) => formatAmount(get(r, 'left_to_refund')),
      display: (r) => formatAmount(get(r, 'left_to_refund'), currencyOf(r)),
      fields: ['left_to_refund'],
    },
    { key: 'parent_id', header: 'Parent', value: (r) => text(get(r, 'parent_id')), fields: ['parent_id'] },
    // Whole: the minutes between two debits of the same amount are what shows a double charge.
    { ...created, keep: true },
  ],
  // One thing that happened to an order (`orders timeline`).
  timeline_event: [
    {
      key: 'at',
      header: 'When',
      value: (r) => text(get(r, 'at')),
      display: (r) => formatTimestamp(get(r, 'at')),
      style: (t, _r, c) => c.dim(t),
      fields: ['at'],
    },
    // Whole at any width: what happened and why (a decline's reason) are what a person reads.
    { key: 'event', header: 'Event', value: (r) => text(get(r, 'event')), fields: ['event'], keep: true },
    ...amount.map((c) => ({ ...c, giveUp: 3 })),
    { key: 'detail', header: 'Detail', value: (r) => text(get(r, 'detail')), fields: ['detail'], keep: true },
    // The record each event comes from, for a script reading csv or tsv (json has them too).
    { key: 'source', header: 'Source', value: (r) => text(get(r, 'source')), fields: ['source'], giveUp: 2 },
    { ...id, keep: false, giveUp: 1 },
  ],
  // One row of a batch of actions on orders or payments (links, pay, pause, capture…).
  batch_result: [
    { key: 'id', header: 'ID', value: (r) => text(get(r, 'id')), fields: ['id'] },
    outcomeStatus,
    { key: 'result', header: 'Result', value: (r) => text(get(r, 'result')), fields: ['result'] },
    {
      key: 'error',
      header: 'Error',
      value: (r) => first(get(r, 'error'), get(r, 'error', 'message')),
      style: (t, _r, c) => c.red(t),
      fields: ['error'],
    },
  ],
  environment: [
    { key: 'name', header: 'Name', value: (r) => text(get(r, 'name')), fields: ['name'] },
    {
      key: 'kind',
      header: 'Kind',
      // "production (by address)": guarded because an address is not this machine (src/config/kind.ts).
      value: (r) => text(get(r, 'kind')),
      display: (r) => {
        if (get(r, 'kind_source') !== 'address') return text(get(r, 'kind'));
        const address = get(r, 'kind_address');
        return `${text(get(r, 'kind'))} (by address${address ? ` ${text(address)}` : ''})`;
      },
      fields: ['kind', 'kind_source', 'kind_address'],
    },
    {
      key: 'base_url',
      header: 'Base URL',
      value: (r) => first(get(r, 'base_url'), get(r, 'baseUrl')),
      fields: ['base_url', 'baseUrl'],
    },
    {
      key: 'base_url_v1',
      header: 'V1 base URL',
      value: (r) => text(get(r, 'base_url_v1')),
      fields: ['base_url_v1'],
    },
    {
      key: 'gateway_url',
      header: 'Gateway URL',
      value: (r) => text(get(r, 'gateway_url')),
      fields: ['gateway_url'],
    },
    {
      key: 'profile',
      header: 'Profile',
      value: (r) => first(get(r, 'profile_id'), get(r, 'profileId'), get(r, 'profile')),
      fields: ['profile_id', 'profileId', 'profile'],
    },
    { key: 'token', header: 'Token', value: (r) => text(get(r, 'token')), fields: ['token'] },
    {
      key: 'current',
      header: 'Current',
      value: (r) => {
        const current = get(r, 'current');
        return current === true || current === '*' || current === 'true' ? '*' : '';
      },
      style: (t, _r, c) => c.green(t),
      fields: ['current'],
    },
  ],
  config_entry: [
    { key: 'key', header: 'Key', value: (r) => text(get(r, 'key')), fields: ['key'] },
    {
      key: 'value',
      header: 'Value',
      value: (r) => {
        const value = get(r, 'value');
        return typeof value === 'object' && value !== null ? JSON.stringify(value) : text(value);
      },
      fields: ['value'],
    },
  ],
};

const PLURALS: Record<ResourceName, string> = {
  order: 'orders',
  customer: 'customers',
  product: 'products',
  payment: 'payments',
  scheduled_payment: 'scheduled payments',
  refund_result: 'refund results',
  customer_order: 'orders',
  order_payment: 'payments',
  timeline_event: 'events',
  batch_result: 'results',
  environment: 'environments',
  config_entry: 'config entries',
};

/** "orders", "scheduled payments": what a list of the resource is called. */
export function pluralOf(resource: ResourceName): string {
  return PLURALS[resource];
}

/** The line a table shows for an empty list: "No orders found." */
export function emptyMessage(resource: ResourceName | readonly Column[]): string {
  return typeof resource === 'string' ? `No ${PLURALS[resource]} found.` : 'Nothing to show.';
}

/** A column that shows one field as text (objects as JSON). */
export function textColumn(
  key: string,
  header: string,
  value?: (row: Record<string, unknown>) => string,
  fit: Pick<Column, 'keep' | 'giveUp'> = {},
): Column {
  return {
    key,
    header,
    value: (row) => (value ? value(row) : text(get(row, key))),
    fields: [key],
    ...fit,
  };
}

// Wire forms of the stored records: what the API answers. Pure functions of the records.

import { fromMinor, toMinor } from '../../domain/money.js';
import { ORDER_TYPES, STATUS_LABELS } from '../../domain/orders.js';
import type {
  Customer,
  CustomerSnapshot,
  Order,
  OrderLine,
  Payment,
  Product,
  ScheduledPayment,
  StoredCheckout,
} from './types.js';

// Made on first use: creating it loads ICU's region names (~12 ms), which the emulator's start
// does without.
let regionNames: Intl.DisplayNames | undefined;
/** Names already looked up, by code as given (every order record shows its customer's). */
const countryNames = new Map<string, string | null>();

export function countryName(code: string | null): string | null {
  if (!code) return null;
  const known = countryNames.get(code);
  if (known !== undefined) return known;
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    const name = regionNames.of(code.toUpperCase()) ?? null;
    if (countryNames.size < 1000) countryNames.set(code, name);
    return name;
  } catch {
    return null;
  }
}

export function displayCustomerId(id: number): string {
  return `CUS-${String(id).padStart(6, '0')}`;
}

/** The customer as an order carries it (webhook form). */
export function customerSnapshot(customer: Customer): CustomerSnapshot {
  return {
    display_customer_id: displayCustomerId(customer.id),
    merchant_customer_id: customer.merchant_customer_id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    full_name: `${customer.first_name} ${customer.last_name}`,
    email: customer.email,
    phone: customer.phone,
    date_of_birth: customer.date_of_birth,
    street: customer.street,
    city: customer.city,
    state: customer.state,
    postal_code: customer.postal_code,
    country: customer.country,
    country_name: countryName(customer.country),
  };
}

/** Fields of the order's customer that the interface types as strings (not "or null"): "" when the customer has none. */
const STRING_FIELDS = ['merchant_customer_id', 'email', 'phone', 'street', 'city', 'postal_code'] as const;

/** The customer on an order as the interface types it: state and date_of_birth may be null, the rest are strings. */
function orderCustomer(snapshot: CustomerSnapshot) {
  const customer: Record<string, string | null> = { ...snapshot };
  for (const field of STRING_FIELDS) customer[field] ??= '';
  // A two-letter code, or absent: never "" (issue 27 §5).
  if (!customer.country) {
    delete customer.country;
    delete customer.country_name;
  }
  return customer as Omit<CustomerSnapshot, (typeof STRING_FIELDS)[number] | 'country' | 'country_name'> &
    Record<(typeof STRING_FIELDS)[number], string> & { country?: string; country_name?: string };
}

export function customerRecord(customer: Customer) {
  return {
    id: customer.id,
    profile_id: customer.profile_id,
    ...customerSnapshot(customer),
    card: customer.card ? { ...customer.card } : null,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
}

/** payload.customer of the version 1 subscription answer. */
export function customerV1Record(customer: Customer) {
  return {
    id: customer.id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    date_of_birth: customer.date_of_birth,
    phone: customer.phone,
    billing_address: {
      street: customer.street,
      city: customer.city,
      postal_code: customer.postal_code,
      state: customer.state,
      country: customer.country,
    },
  };
}

export function productRecord(product: Product) {
  return {
    id: product.id,
    profile_id: product.profile_id,
    name: product.name,
    description: product.description,
    price: product.price,
    currency: product.currency,
    product_type: product.product_type,
    price_locked: product.price_locked,
    tax_percentage: product.tax_percentage,
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

export function orderLineRecord(line: OrderLine) {
  return {
    id: line.id,
    product_id: line.product_id,
    name: line.name,
    selection_text: null,
    options: null,
    qty: line.qty,
    amount: line.amount,
    products_total: line.products_total,
    discount_amount: line.discount_amount,
    fee_amount: line.fee_amount,
    tax_amount: line.tax_amount,
    subtotal_amount: line.subtotal_amount,
    product_discount_id: null,
    product_fee_id: null,
    // A product has at most one tax here, so the tax takes the product's id.
    product_tax_id: line.tax_percentage ? line.product_id : null,
  };
}

/** The order in the webhook form, which is also what the version 2 API answers. */
export function orderRecord(order: Order) {
  return {
    id: order.id,
    merchant_invoice_id: order.invoice_id,
    order_type: { value: order.order_type, label: ORDER_TYPES[order.order_type] },
    status: { value: order.status, label: STATUS_LABELS[order.status] },
    currency: order.currency,
    channel: order.channel,
    description: order.description,
    collect_initial_payment: order.collect_initial_payment,
    card_details_saved: order.card_details_saved ? 'Yes' : 'No',
    initial_amount: order.summary.initial_amount,
    customer_id: order.customer_id,
    customer: orderCustomer(order.customer),
    order_products: order.lines.map(orderLineRecord),
    summary: { ...order.summary },
    tag_list: [],
    ...(order.capture_mode ? { capture_mode: order.capture_mode } : {}),
    // Assumed (docs/decisions.md): a paused order's scheduled restart, as resume answered it.
    ...(order.status === 'paused' && order.subscription?.restart_at
      ? { restart_date: order.subscription.restart_at }
      : {}),
    created_at: order.created_at,
    updated_at: order.updated_at,
    status_updated_at: order.status_updated_at,
  };
}

/** payload.order of the version 1 subscription answer. */
export function orderV1Record(order: Order) {
  return {
    id: order.id,
    profile_id: order.profile_id,
    invoice_id: order.invoice_id,
    customer_id: order.customer_id,
    initial_amount: order.summary.initial_amount,
    description: order.description,
    note: order.note,
    total_discount_amount: order.summary.discount_total,
    total_fee_amount: order.summary.fee_total,
    total_tax_amount: order.summary.tax_total,
  };
}

/** payload.product[] of the version 1 subscription answer. */
export function orderLineV1Record(line: OrderLine, order: Order, product: Product | undefined) {
  const interval = order.subscription?.interval ?? 'MONTH';
  const scheduledInterval = order.subscription?.scheduled_interval ?? 1;
  const taxable = fromMinor(toMinor(line.products_total) - toMinor(line.discount_amount));
  return {
    ...orderLineRecord(line),
    order_id: order.id,
    description: line.description,
    created_at: order.created_at,
    updated_at: order.updated_at,
    product_config: {
      tax: line.tax_percentage
        ? {
            id: line.product_id,
            name: `Tax ${line.tax_percentage}%`,
            type: 'percentage',
            percentage: line.tax_percentage,
          }
        : null,
      price: Number(product?.price ?? line.amount),
      currency: product?.currency ?? order.currency,
      product_type: product?.product_type ?? 'subscription',
      subscription: {
        scheduled_interval: scheduledInterval,
        initial_payment_amount: Number(line.subtotal_amount),
        scheduled_duration_unit: interval,
      },
      payment_configuration: {
        payment_note: order.note,
        product_note: line.description,
        product_initial: line.subtotal_amount,
        product_subtotal: taxable,
        product_recurring: order.subscription?.repeated_amount ?? line.subtotal_amount,
        product_tax_amount: line.tax_amount,
        scheduled_interval: scheduledInterval,
        collection_interval: interval,
        product_total_to_pay: line.subtotal_amount,
        product_taxable_amount: taxable,
        scheduled_duration_unit: interval,
        scheduled_duration_number: order.subscription?.instalments ?? null,
        fee_for_initial_payment_only: product?.fee_for_initial_payment_only ?? false,
        discount_for_initial_payment_only: product?.discount_for_initial_payment_only ?? false,
      },
    },
  };
}

export const CHECKOUT_RESULT = { code: '000.200.100', description: 'successfully created checkout' } as const;

export function checkoutRecord(checkout: StoredCheckout, origin: string) {
  return {
    result: { ...CHECKOUT_RESULT },
    buildNumber: checkout.build_number,
    timestamp: checkout.timestamp,
    ndc: checkout.ndc,
    id: checkout.id,
    integrity: checkout.integrity,
    form_action: `${origin}/gateway/checkouts/${checkout.id}/payment`,
  };
}

export function scheduledPaymentRecord(payment: ScheduledPayment) {
  return { ...payment };
}

export function paymentRecord(payment: Payment) {
  return { ...payment };
}

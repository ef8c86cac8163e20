// Wire types, named as the interface document names the fields. Records keep an index
// signature: the service may send fields the document does not list, and `-o json`
// prints the record as it came.

export interface ValueLabel {
  value: string;
  label: string;
}

export interface Summary {
  products_total?: string;
  fee_total?: string;
  discount_total?: string;
  tax_total?: string;
  sub_total?: string;
  initial_amount?: string;
  payment_amount?: string;
  tax_type?: string | null;
  [key: string]: unknown;
}

export interface BillingAddress {
  street?: string;
  city?: string;
  postal_code?: string;
  state?: string | null;
  country?: string;
}

/** A customer in either form the document shows (webhook form, version 1 create response). */
export interface Customer {
  id?: number;
  display_customer_id?: string;
  merchant_customer_id?: string;
  first_name?: string;
  last_name?: string;
  full_name?: string;
  email?: string;
  phone?: string;
  date_of_birth?: string | null;
  street?: string;
  city?: string;
  state?: string | null;
  postal_code?: string;
  country?: string;
  country_name?: string;
  billing_address?: BillingAddress;
  [key: string]: unknown;
}

export interface OrderProduct {
  id?: number;
  product_id: number;
  order_id?: number;
  name?: string;
  description?: string;
  selection_text?: string | null;
  options?: unknown;
  qty?: number;
  amount?: string;
  products_total?: string;
  discount_amount?: string;
  fee_amount?: string;
  tax_amount?: string;
  subtotal_amount?: string;
  product_discount_id?: number | null;
  product_fee_id?: number | null;
  product_tax_id?: number | null;
  product_config?: Record<string, unknown>;
  created_at?: string;
  updated_at?: string;
  [key: string]: unknown;
}

export interface Order {
  id: number;
  /** The merchant's own id (request field invoice_id). */
  merchant_invoice_id?: string;
  /** Name used by the version 1 create response. */
  invoice_id?: string;
  profile_id?: number;
  order_type?: ValueLabel;
  status?: ValueLabel;
  currency?: string;
  channel?: string;
  description?: string | null;
  note?: string | null;
  collect_initial_payment?: boolean;
  card_details_saved?: string;
  initial_amount?: string;
  customer_id?: number;
  customer?: Customer;
  order_products?: OrderProduct[];
  summary?: Summary;
  tag_list?: unknown[];
  total_discount_amount?: string;
  total_fee_amount?: string;
  total_tax_amount?: string;
  created_at?: string;
  updated_at?: string;
  status_updated_at?: string;
  [key: string]: unknown;
}

export interface Checkout {
  result?: { code: string; description: string };
  buildNumber?: string;
  timestamp?: string;
  ndc?: string;
  id: string;
  integrity?: string;
  form_action?: string;
  [key: string]: unknown;
}

/** Fields not shown by the document; these are what the emulator uses (docs/decisions.md). */
export interface Payment {
  id: number;
  order_id?: number;
  kind?: string;
  status?: string;
  amount?: string;
  currency?: string;
  parent_id?: number | null;
  created_at?: string;
  [key: string]: unknown;
}

export interface ScheduledPayment {
  id: number;
  order_id?: number;
  due_date?: string;
  amount?: string;
  currency?: string;
  status?: string;
  [key: string]: unknown;
}

/** Fields not shown by the document. */
export interface Product {
  id: number;
  name?: string;
  description?: string | null;
  price?: string;
  currency?: string;
  product_type?: string;
  [key: string]: unknown;
}

export interface OrderInput {
  currency: string;
  customer_id: number;
  invoice_id: string;
  create_checkout?: boolean;
  order_products: { product_id: number; qty?: number }[];
  redirect_url?: string;
  failed_redirect_url?: string;
  description?: string;
}

export interface SubscriptionOrderInput {
  currency: string;
  customer_id: number;
  /** MONTH is the code shown. */
  recurring_collection_interval: string;
  /** "DD/MM/YYYY HH:MM", day first. */
  start_date: string;
  start_date_unix?: string;
  redirect_url?: string;
  failed_redirect_url?: string;
  note?: string;
  create_checkout?: boolean;
  /** Number of instalments: the order completes after the last one (assumed request field). */
  scheduled_duration?: number;
  order_product: {
    product_id: number;
    qty?: number;
    amount?: string;
    discount_amount?: string;
    fee_amount?: number;
  };
}

/** `payload` of the version 1 subscription order answer. */
export interface SubscriptionPayload {
  order: Order;
  customer?: Customer;
  product?: OrderProduct[];
  checkout?: Checkout;
  payment_link?: string;
  redirect_url?: string | null;
  start_date?: string;
  repeated_amount?: string;
  scheduled_duration?: unknown;
  scheduled_unit?: string;
  scheduled_interval?: number;
  [key: string]: unknown;
}

/** Customer and product request fields are not shown: the body is passed through. */
export type CustomerInput = Record<string, unknown>;
export type ProductInput = Record<string, unknown>;

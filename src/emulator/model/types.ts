// Records as the emulator stores them. Wire forms are built from these in records.ts.

import type { OrderStatus, OrderType } from '../../domain/orders.js';

export type SeedName = 'demo' | 'empty';
export type ProductType = 'single' | 'subscription';

export interface Customer {
  id: number;
  profile_id: number;
  merchant_customer_id: string | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  date_of_birth: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  /** The stored card that pay_with_card charges; absent or null when there is none. */
  card?: StoredCard | null;
  /** Emulator-only flag (POST /__emulator/declines): recurring charges of this customer are declined. */
  decline?: DeclineFlag | null;
  created_at: string;
  updated_at: string;
}

/** `remaining` declines to go (null: every charge) before charges are approved again. */
export interface DeclineFlag {
  kind: 'soft' | 'hard';
  remaining: number | null;
}

/** A customer's stored card (assumed: the interface shows no card record). */
export interface StoredCard {
  brand: string;
  last4: string;
  /** MM/YY */
  expiry: string;
}

export interface Product {
  id: number;
  profile_id: number;
  name: string;
  description: string | null;
  price: string;
  currency: string;
  product_type: ProductType;
  price_locked: boolean;
  tax_percentage: number | null;
  /** Set in the dashboard (the emulator: POST /__emulator/products/{id}/payment-configuration). */
  fee_for_initial_payment_only?: boolean;
  discount_for_initial_payment_only?: boolean;
  created_at: string;
  updated_at: string;
}

/** The customer as saved on an order when it was created (the webhook form). */
export interface CustomerSnapshot {
  display_customer_id: string;
  merchant_customer_id: string | null;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string | null;
  phone: string | null;
  date_of_birth: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  country_name: string | null;
}

export interface OrderLine {
  id: number;
  product_id: number;
  name: string;
  description: string | null;
  qty: number;
  /** Unit price of the line. */
  amount: string;
  products_total: string;
  discount_amount: string;
  fee_amount: string;
  tax_amount: string;
  subtotal_amount: string;
  tax_percentage: number | null;
}

export interface Summary {
  products_total: string;
  fee_total: string;
  discount_total: string;
  tax_total: string;
  sub_total: string;
  initial_amount: string;
  payment_amount: string;
  tax_type: string | null;
  /** Set once the order has a payment: collected (debits and captures) and refunded, in all. */
  paid_total?: string;
  refunded_total?: string;
}

export interface StoredCheckout {
  id: string;
  integrity: string;
  ndc: string;
  build_number: string;
  timestamp: string;
  created_at: string;
  expires_at: string;
}

/** MONTH is the code the interface shows; QUARTER and YEAR are our assumption. */
export type IntervalCode = 'MONTH' | 'QUARTER' | 'YEAR';

export interface Subscription {
  interval: IntervalCode;
  scheduled_interval: number;
  start_date: string;
  repeated_amount: string;
  /** Instalment orders: how many scheduled payments in all (request field scheduled_duration, assumed). */
  instalments?: number | null;
  /** Billing cycles are counted from here: the start date, or where a new interval took effect. */
  anchor?: string;
  /** When the first payment made the order live. */
  activated_at?: string | null;
  /** A scheduled restart of a paused order (resume with restart_date). */
  restart_at?: string | null;
}

export interface Order {
  id: number;
  profile_id: number;
  invoice_id: string;
  order_type: OrderType;
  status: OrderStatus;
  currency: string;
  channel: 'ECOM';
  description: string | null;
  note: string | null;
  collect_initial_payment: boolean;
  card_details_saved: boolean;
  customer_id: number;
  customer: CustomerSnapshot;
  lines: OrderLine[];
  summary: Summary;
  redirect_url: string | null;
  failed_redirect_url: string | null;
  checkout: StoredCheckout | null;
  /** Secret of the order's portal address (payment link); made on first use. */
  portal_token: string | null;
  subscription: Subscription | null;
  /** 'preauth' marks a pre-auth-only order (assumed field): its first payment is a pre-authorisation. */
  capture_mode?: 'preauth';
  /** Customer notifications already sent, by key (e.g. pending_reminder, card_expiring:12/30), with when. */
  notices?: Record<string, string>;
  created_at: string;
  updated_at: string;
  status_updated_at: string;
}

export type ScheduledPaymentStatus = 'scheduled' | 'paid' | 'skipped' | 'failed' | 'merged';

export interface ScheduledPayment {
  id: number;
  order_id: number;
  due_date: string;
  amount: string;
  currency: string;
  status: ScheduledPaymentStatus;
  /** The cycle date it was made for; due_date differs once rescheduled. */
  cycle_date?: string;
  /** Charge attempts made, and when the next retry of a soft-declined payment is. */
  attempts?: number;
  next_retry_at?: string | null;
  failure_reason?: string | null;
  /** The payment that settled it. */
  payment_id?: number | null;
  paid_at?: string | null;
  /** Why it was skipped (by the merchant, while paused, the order ended …). */
  note?: string | null;
  merged_into?: number | null;
  renewal_notice_at?: string | null;
}

export interface Payment {
  id: number;
  order_id: number;
  kind: 'preauthorization' | 'debit' | 'capture' | 'refund' | 'reversal';
  status: 'succeeded' | 'failed' | 'pending';
  amount: string;
  currency: string;
  parent_id: number | null;
  /** Recurring charges: the scheduled payment it was for, and why it was declined. */
  scheduled_payment_id?: number;
  failure_reason?: string | null;
  created_at: string;
}

// The pure matchers of finding (those of each filter of `orders list` sit beside it, in
// src/commands/orders/filters.ts): does a record answer what was asked. No I/O; the records are
// whatever the service sent, so every reader checks the type of what it reads.

import { personName } from '../../domain/customers.js';
import { isAmount, toMinor } from '../../domain/money.js';
import { type AnyRecord, isRecord } from '../../domain/records.js';

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** A field of a record, or of a nested record: field(order, 'customer', 'email'). */
export function field(record: unknown, ...path: string[]): unknown {
  let at = record;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return at;
}

export const customerOf = (order: unknown): AnyRecord => {
  const customer = field(order, 'customer');
  return isRecord(customer) ? customer : {};
};

/** An invoice id pattern: exact, or a prefix when it ends with `*` ("INV-0001*"). */
export interface InvoicePattern {
  text: string;
  prefix: boolean;
}

export function invoicePattern(raw: string): InvoicePattern {
  const text = raw.trim();
  return text.endsWith('*') ? { text: text.slice(0, -1), prefix: true } : { text, prefix: false };
}

export function invoiceOf(order: unknown): string | undefined {
  return str(field(order, 'merchant_invoice_id')) ?? str(field(order, 'invoice_id'));
}

/**
 * Whether the order's invoice id is the pattern's (or starts with it). `anyCase`: in any case,
 * as `orders list --invoice` and the lookup of `orders get` take it; without it, exactly (the
 * lookup stops reading at an exact match only, the one the service's uniqueness vouches for).
 */
export function matchesInvoice(order: unknown, p: InvoicePattern, anyCase = false): boolean {
  const found = invoiceOf(order);
  if (found === undefined) return false;
  const invoice = anyCase ? found.toLowerCase() : found;
  const text = anyCase ? p.text.toLowerCase() : p.text;
  return p.prefix ? invoice.startsWith(text) : invoice === text;
}

/** The order's amount: initial_amount (or summary.initial_amount) in minor units. */
export function amountOf(order: unknown): bigint | undefined {
  const raw = field(order, 'initial_amount') ?? field(order, 'summary', 'initial_amount');
  const text = typeof raw === 'number' && Number.isFinite(raw) ? raw.toFixed(2) : str(raw)?.trim();
  return text !== undefined && isAmount(text) ? toMinor(text) : undefined;
}

/** A time field as ms since the epoch; undefined when absent or not a time. */
export function timeOf(record: unknown, name: string): number | undefined {
  const raw = str(field(record, name));
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

export function inRange(ms: number | undefined, since?: number, until?: number): boolean {
  if (since === undefined && until === undefined) return true;
  if (ms === undefined) return false;
  return (since === undefined || ms >= since) && (until === undefined || ms < until);
}

export function sameEmail(a: string | undefined, b: string): boolean {
  return a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A customer record by --email (exact, any case) and --name (part of the name, any case). */
export function matchesCustomer(customer: unknown, c: { email?: string; name?: string }): boolean {
  if (c.email !== undefined && !sameEmail(str(field(customer, 'email')), c.email)) return false;
  if (c.name !== undefined && !personName(customer).toLowerCase().includes(c.name.toLowerCase()))
    return false;
  return true;
}

// ---- billing search: what a text matches, and how well.

export type SearchKind = 'order' | 'customer';

export interface Hit {
  kind: SearchKind;
  id: string;
  /** Higher first. */
  score: number;
  /** "email", "invoice id (prefix)": what the text matched on. */
  matched: string;
  record: unknown;
}

const EXACT = 100;
const PREFIX = 60;
const PART = 30;

/** Digits only: phones are written with spaces, dashes and a +. */
const digits = (s: string): string => s.replace(/\D/g, '');

/**
 * How `text` meets `value`: exact, prefix or part (case-insensitive), or not at all. In a
 * name, the start of any word counts as its start ("dubois" starts "Marie Dubois").
 */
function grade(value: string | undefined, text: string, words = false): number {
  if (!value) return 0;
  const v = value.trim().toLowerCase();
  const t = text.trim().toLowerCase();
  if (!t) return 0;
  if (v === t) return EXACT;
  if (v.startsWith(t) || (words && v.split(/\s+/).some((w) => w.startsWith(t)))) return PREFIX;
  return v.includes(t) ? PART : 0;
}

const HOW: Record<number, string> = { [EXACT]: '', [PREFIX]: ' (starts with)', [PART]: ' (part)' };

function best(candidates: [label: string, value: string | undefined, weight: number][], text: string) {
  let top: { score: number; matched: string } | undefined;
  for (const [label, value, weight] of candidates) {
    const g = grade(value, text, label.endsWith('name'));
    if (g === 0) continue;
    const score = g + weight;
    if (!top || score > top.score) top = { score, matched: `${label}${HOW[g]}` };
  }
  return top;
}

/** A phone number matches on its digits, when the text has at least 4 of them. */
function phoneGrade(phone: string | undefined, text: string): number {
  const t = digits(text);
  if (!phone || t.length < 4 || /[a-z@]/i.test(text)) return 0;
  return grade(digits(phone), t);
}

/** An id matches only whole: "12" is order 12, not 112. */
const idGrade = (id: string | undefined, text: string): number =>
  id !== undefined && /^\d+$/.test(text.trim()) && Number(text.trim()) === Number(id) ? EXACT : 0;

export function matchOrder(order: unknown, text: string): Hit | undefined {
  const id = str(field(order, 'id'));
  if (id === undefined) return undefined;
  const customer = customerOf(order);
  const top = best(
    [
      ['invoice id', invoiceOf(order), 5],
      ['customer email', str(customer.email), 2],
      ['customer name', personName(customer), 0],
    ],
    text,
  );
  const hits = [top];
  if (idGrade(id, text)) hits.push({ score: EXACT + 4, matched: 'order id' });
  const customerId = str(field(order, 'customer_id'));
  if (idGrade(customerId, text)) hits.push({ score: EXACT - 10, matched: 'customer id' });
  const phone = phoneGrade(str(customer.phone), text);
  if (phone) hits.push({ score: phone - 1, matched: `customer phone${HOW[phone]}` });
  const winner = pick(hits);
  return winner && { kind: 'order', id, record: order, ...winner };
}

export function matchCustomer(customer: unknown, text: string): Hit | undefined {
  const id = str(field(customer, 'id'));
  if (id === undefined) return undefined;
  const top = best(
    [
      ['email', str(field(customer, 'email')), 3],
      ['name', personName(customer), 1],
      ['customer id', str(field(customer, 'display_customer_id')), 3],
      ['your customer id', str(field(customer, 'merchant_customer_id')), 3],
    ],
    text,
  );
  const hits = [top];
  if (idGrade(id, text)) hits.push({ score: EXACT + 3, matched: 'customer id' });
  const phone = phoneGrade(str(field(customer, 'phone')), text);
  if (phone) hits.push({ score: phone + 2, matched: `phone${HOW[phone]}` });
  const winner = pick(hits);
  return winner && { kind: 'customer', id, record: customer, ...winner };
}

function pick(hits: ({ score: number; matched: string } | undefined)[]) {
  let top: { score: number; matched: string } | undefined;
  for (const hit of hits) if (hit && (!top || hit.score > top.score)) top = hit;
  return top;
}

/**
 * Best first: by score; on a tie a customer before its orders, then the newer record (higher id).
 */
export function rankHits(hits: Hit[]): Hit[] {
  return [...hits].sort(
    (a, b) =>
      b.score - a.score ||
      (a.kind === b.kind ? 0 : a.kind === 'customer' ? -1 : 1) ||
      Number(b.id) - Number(a.id),
  );
}

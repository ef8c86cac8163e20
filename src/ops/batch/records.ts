// What kind of record a line of a batch file is, by the keys (JSON) or columns (CSV) only one
// kind has, as the lists print them: an order names its invoice (merchant_invoice_id; invoice_id
// in CSV and version 1), a customer its own ids (display_customer_id, merchant_customer_id). A
// payment has neither: it names its order as order_id, which is why an order action reads a
// payment's line by order_id. A line of another kind gives no id: read as a payment id, the
// "id" 174 of order INV-000174 sent a capture of payment 174.

/** What the ids of a batch command are. */
export type IdOf = 'order' | 'payment';

const A: Record<IdOf, string> = { order: 'an order', payment: 'a payment' };

const MARKS: readonly { kind: string; a: string; keys: readonly string[] }[] = [
  { kind: 'order', a: 'an order', keys: ['merchant_invoice_id', 'invoice_id'] },
  { kind: 'customer', a: 'a customer', keys: ['display_customer_id', 'merchant_customer_id'] },
];

/** "an order (it has "merchant_invoice_id"), not a payment: …" when the line is marked as another kind. */
export function otherRecord(keys: readonly string[], what: IdOf): string | undefined {
  for (const mark of MARKS) {
    const key = mark.kind === what ? undefined : mark.keys.find((k) => keys.includes(k));
    if (key !== undefined) return `${mark.a} (it has "${key}"), not ${A[what]}: its "id" is no ${what} id`;
  }
  return undefined;
}

/** The list whose records carry the ids a command takes. */
export function whereIdsAre(what: IdOf): string {
  return what === 'payment'
    ? 'billing payments list --order ID -o ndjson gives payments'
    : 'billing orders list --customer ID -o ndjson gives orders';
}

/** The batch command's rule for a file's ids, after a line of another kind. */
export function idsRule(what: IdOf, ndjson: boolean): string {
  return ndjson
    ? `each line needs "${what}_id", or the "id" of ${A[what]}`
    : `the header needs a ${what}_id column, or an id column of ${what}s`;
}

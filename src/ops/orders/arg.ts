// The one place an order argument becomes an order id: a number is the id; anything else is
// an invoice id (INV-000174, or INV-0001* for the only one starting so), looked up by reading
// the pages of orders (./find/invoice.ts: candidates printed and exit 2, none exit 5). The
// command then goes on as for a numeric id, so `orders get INV-000174` is `orders get 174`.

import * as parse from '../runtime/args.js';
import type { Runtime } from '../runtime/runtime.js';

/** Whether an order argument is an invoice id rather than a number. */
export function isInvoiceText(text: string | undefined): text is string {
  return text !== undefined && text.trim() !== '' && !/^\s*\d+\s*$/.test(text);
}

export async function orderIdOf(rt: Runtime, text: string | undefined): Promise<number> {
  if (isInvoiceText(text)) {
    const { findByInvoice } = await import('../find/invoice.js');
    return (await findByInvoice(rt, text)).id;
  }
  return parse.recordId('order', text ?? '');
}

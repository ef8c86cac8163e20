// An order named by its invoice id (`orders get INV-7001`), found by reading the pages of
// orders. The interface document makes an invoice id unique per order, so an exact match
// ends the reading at once. Otherwise every page is read for candidates: invoice ids that
// start with the text (when it ends with *) or hold it, in any case. What is found is the
// order's id: the command then reads and shows it as it does for a numeric id
// (../order-arg.ts).

import { iterateOrders } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { writeList } from '../../format/index.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import { invoiceOf, invoicePattern, matchesInvoice } from './match.js';
import { SCAN_CONCURRENCY, scan, tallyLine } from './scan.js';

/** The order whose invoice id is `text`; the candidates are printed (exit 2), none is exit 5. */
export async function findByInvoice(rt: Runtime, text: string): Promise<Order> {
  const pattern = invoicePattern(text);
  const needle = pattern.text.toLowerCase();
  const exact = (o: Order) => !pattern.prefix && matchesInvoice(o, pattern);
  const candidate = (o: Order) => {
    const invoice = invoiceOf(o)?.toLowerCase();
    if (invoice === undefined) return false;
    return pattern.prefix ? invoice.startsWith(needle) : invoice.includes(needle);
  };
  const found: Order[] = [];
  const tally = await scan(
    rt,
    { plural: 'orders', iterate: (client, options) => iterateOrders(client, options) },
    { accept: (o) => exact(o) || candidate(o), completes: exact, concurrency: SCAN_CONCURRENCY },
    async (records) => {
      for await (const order of records) found.push(order);
    },
    false,
  );
  const searched = tallyLine([tally]);
  // One candidate is the answer when it starts with the text* asked, or is the text in another case.
  const only = found.length === 1 ? found[0] : undefined;
  const hit =
    found.find(exact) ??
    (only && (pattern.prefix || invoiceOf(only)?.toLowerCase() === needle) ? only : undefined);
  if (hit) {
    rt.info(searched);
    return hit;
  }
  const what = pattern.prefix ? `an invoice id starting with "${pattern.text}"` : `the invoice id "${text}"`;
  if (found.length === 0) {
    throw new BillingError(
      'not_found',
      EXIT.notFound,
      `no order has ${what}: read every page of orders (${plural(tally.pages, 'page')}, ${plural(tally.records, 'order')})`,
      { hint: 'billing search TEXT looks in invoice ids, emails, names and phones' },
    );
  }
  rt.info(searched);
  await writeList(found, 'order', rt.output);
  throw new UsageError(
    pattern.prefix
      ? `${found.length} orders have ${what}`
      : `no order has the invoice id "${text}" exactly; ${found.length === 1 ? '1 has' : `${found.length} have`} one holding it`,
    { hint: 'name one by its id: billing orders get ID (the candidates are printed above)' },
  );
}

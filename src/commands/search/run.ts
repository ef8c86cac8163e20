// billing search TEXT: one entry point over orders and customers. Both lists are read at
// once (the search over pages of ./scan.ts), every record is graded against the text
// (./match.ts: exact, starts with, part; ids only whole), and the hits are shown best first,
// each saying what it matched on.

import { iterateCustomers } from '../../api/customers.js';
import { iterateOrders } from '../../api/orders.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { personName } from '../../domain/customers.js';
import { orderStatus } from '../../domain/orders.js';
import { type Column, formatAmount, textColumn, writeList } from '../../format/index.js';
import {
  customerOf,
  type Hit,
  invoiceOf,
  matchCustomer,
  matchOrder,
  rankHits,
} from '../../ops/find/match.js';
import { SCAN_CONCURRENCY, type ScanTally, scan, tallyLine } from '../../ops/find/scan.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { matchesOrder, orderCriteria } from '../orders/filters.js';
import type { searchVerb } from './search.js';

/** Its flags (../search.verb.ts): the filters of `orders list` too; the MCP tool leaves out what it does not set. */
export type SearchFlags = Partial<OptionsOf<typeof searchVerb>>;

export const DEFAULT_SEARCH_LIMIT = 20;

export async function search(rt: Runtime, [raw]: string[], flags: SearchFlags): Promise<void> {
  const text = (raw ?? '').trim();
  if (text === '') throw parse.needArgument('text to look for');
  const limit = flags.limit === undefined ? DEFAULT_SEARCH_LIMIT : nonNegative(flags.limit);
  const concurrency =
    flags.concurrency === undefined
      ? SCAN_CONCURRENCY
      : parse.positiveInt('--concurrency', flags.concurrency);
  const criteria = orderCriteria(flags);
  const hits: Hit[] = [];
  const collect =
    (match: (record: unknown, text: string) => Hit | undefined) =>
    async (records: AsyncGenerator<unknown>) => {
      for await (const record of records) {
        const hit = match(record, text);
        if (hit) hits.push(hit);
      }
    };
  // Records are graded as they come; a scan keeps none of them itself.
  const everything = { accept: () => true, concurrency };
  const orders = scan(
    rt,
    { plural: 'orders', iterate: iterateOrders },
    criteria ? { accept: (o) => matchesOrder(o, criteria), concurrency } : everything,
    collect(matchOrder),
    false,
  );
  // A filter is about orders: given one, no customer answers it.
  const customers = criteria
    ? []
    : [
        scan(
          rt,
          { plural: 'customers', iterate: iterateCustomers },
          { ...everything, quiet: true },
          collect(matchCustomer),
          false,
        ),
      ];
  const tallies: ScanTally[] = await Promise.all([...customers, orders]);
  const ranked = rankHits(hits);
  const shown = limit === 0 ? ranked : ranked.slice(0, limit);
  for (const t of tallies) t.matched = hits.filter((h) => `${h.kind}s` === t.plural).length;
  rt.info(tallyLine(tallies));
  if (shown.length < ranked.length) {
    rt.info(`Showing the best ${shown.length} of ${ranked.length}; --limit 0 shows all.`);
  }
  await writeList(shown, SEARCH_COLUMNS, rt.output);
}

function nonNegative(value: string): number {
  return value.trim() === '0' ? 0 : parse.positiveInt('--limit', value);
}

const of = (hit: unknown) => hit as Hit;
const isOrder = (hit: unknown) => of(hit).kind === 'order';
const person = (hit: unknown) => (isOrder(hit) ? customerOf(of(hit).record) : of(hit).record);
const field = (record: unknown, key: string): unknown =>
  typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
const textOf = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/**
 * One line a hit: what it is, what it matched on, and what a person looks for next. On a
 * narrow terminal the ids, the email and the invoice id are cut last (what a person looks
 * things up by, as in every list); the amount gives up first (`orders get` shows it), then
 * what matched (the same for every hit of an email).
 */
const SEARCH_COLUMNS: Column[] = [
  textColumn('kind', 'Kind', (h) => of(h).kind),
  textColumn('id', 'ID', (h) => of(h).id, { keep: true }),
  textColumn('matched', 'Matched on', (h) => of(h).matched, { giveUp: 2 }),
  textColumn('name', 'Name', (h) => personName(person(h))),
  textColumn('email', 'Email', (h) => textOf(field(person(h), 'email')), { keep: true }),
  textColumn('invoice_id', 'Invoice ID', (h) => (isOrder(h) ? (invoiceOf(of(h).record) ?? '') : ''), {
    keep: true,
  }),
  textColumn('status', 'Status', (h) => (isOrder(h) ? orderStatus(of(h).record) : '')),
  {
    key: 'amount',
    header: 'Amount',
    value: (h) => (isOrder(h) ? formatAmount(field(of(h).record, 'initial_amount')) : ''),
    display: (h) => (isOrder(h) ? formatAmount(field(of(h).record, 'initial_amount'), currencyOf(h)) : ''),
    giveUp: 1,
  },
  { key: 'currency', header: 'Currency', value: currencyOf, machineOnly: true },
];

function currencyOf(hit: unknown): string {
  return isOrder(hit) ? textOf(field(of(hit).record, 'currency')) : '';
}

// The filters of `orders list`, declared once, each whole: its flags, how their values are read
// into its criterion (checked before anything is sent), and its matcher (a pure function of the
// criterion and an order). `orders list` and `billing search` take them, `payments list` takes
// some of them (src/commands/payments/across-orders.run.ts), and the MCP tool `list_orders` is made from
// their flags (src/mcp/reads.ts). A new filter is one entry here.

import { DATE_FORMS } from '../../cli/kit/help-text.js';
import { type FlagSpec, type FlagsOf, gather } from '../../cli/kit/verb.js';
import { personName } from '../../domain/customers.js';
import { ORDER_STATUSES, ORDER_TYPES, orderStatus } from '../../domain/orders.js';
import { codeOf } from '../../domain/records.js';
import { UsageError } from '../../errors.js';
import { dateCriterion, minorRange, orderTypes, statuses } from '../../ops/find/filters.js';
import {
  amountOf,
  customerOf,
  field,
  inRange,
  invoicePattern,
  matchesInvoice,
  sameEmail,
  str,
  timeOf,
} from '../../ops/find/match.js';
import * as parse from '../../ops/runtime/args.js';

/** A filter: its flags, their values read into a criterion (undefined: not asked), its matcher. */
interface OrderFilter<F extends readonly FlagSpec[], C> {
  readonly flags: F;
  /** `given` are this filter's flags; `all` every filter flag, for a filter that depends on another. */
  readonly read: (given: FlagsOf<F>, all: Readonly<Record<string, unknown>>) => C | undefined;
  readonly matches: (order: unknown, criterion: C) => boolean;
}

/** Declares a filter; `const` keeps its flags' text, from which their option names are typed. */
function filter<const F extends readonly FlagSpec[], C>(spec: OrderFilter<F, C>): OrderFilter<F, C> {
  return spec;
}

export const ORDER_FILTERS = {
  status: filter({
    flags: [
      {
        flag: '--status <status>',
        help: 'in any of these statuses: repeat or comma-separate (failed,suspended)',
        parse: gather,
        values: ORDER_STATUSES,
      },
    ],
    read: (f) => (f.status?.length ? statuses(f.status) : undefined),
    matches: (order, wanted: readonly string[]) => wanted.includes(orderStatus(order)),
  }),
  type: filter({
    flags: [
      {
        flag: '--type <type>',
        help: `order type: ${Object.keys(ORDER_TYPES).join(', ')}`,
        parse: gather,
        values: Object.keys(ORDER_TYPES) as (keyof typeof ORDER_TYPES)[],
      },
    ],
    read: (f) => (f.type?.length ? orderTypes(f.type) : undefined),
    matches: (order, wanted: readonly string[]) => wanted.includes(codeOf(field(order, 'order_type')) ?? ''),
  }),
  currency: filter({
    flags: [{ flag: '--currency <code>', help: 'in this currency (EUR)' }],
    read: (f) => (f.currency === undefined ? undefined : parse.currency(f.currency)),
    matches: (order, code: string) => str(field(order, 'currency'))?.toUpperCase() === code,
  }),
  customer: filter({
    flags: [{ flag: '--customer <id>', help: "the customer's id" }],
    read: (f) => {
      if (f.customer === undefined) return undefined;
      // An e-mail or a name where the id goes: the filter that takes it is named (MCP: email, name).
      if (!/^\s*\d+\s*$/.test(f.customer)) {
        const which = f.customer.includes('@') ? '--email' : '--name';
        throw new UsageError(`--customer takes the customer's id, not "${f.customer.trim()}"`, {
          hint: `give ${which === '--email' ? 'an e-mail' : 'a name'} with ${which} ${JSON.stringify(f.customer.trim())} (the tool argument ${which.slice(2)})`,
        });
      }
      return parse.recordId('--customer', f.customer);
    },
    matches: (order, id: number) =>
      str(field(order, 'customer_id') ?? field(order, 'customer', 'id')) === String(id),
  }),
  email: filter({
    flags: [{ flag: '--email <email>', help: "the customer's email, in any case" }],
    read: (f) => (f.email === undefined ? undefined : parse.text('--email', f.email)),
    matches: (order, email: string) => sameEmail(str(customerOf(order).email), email),
  }),
  name: filter({
    flags: [{ flag: '--name <text>', help: "part of the customer's name, in any case" }],
    read: (f) => (f.name === undefined ? undefined : parse.text('--name', f.name)),
    matches: (order, name: string) =>
      personName(customerOf(order)).toLowerCase().includes(name.toLowerCase()),
  }),
  invoice: filter({
    flags: [
      {
        flag: '--invoice <id>',
        help: 'this invoice id (any case), or those starting so with a trailing * (INV-00012*)',
      },
    ],
    read: (f) => {
      if (f.invoice === undefined) return undefined;
      const pattern = invoicePattern(parse.text('--invoice', f.invoice));
      if (pattern.text === '')
        throw parse.bad('--invoice', 'an invoice id, or its start and *', 'INV-0001*', f.invoice);
      return pattern;
    },
    matches: (order, pattern) => matchesInvoice(order, pattern, true),
  }),
  dates: filter({
    flags: [
      {
        flag: '--since <date>',
        help: `created (with --status: got that status) on or after (${DATE_FORMS})`,
      },
      {
        flag: '--until <date>',
        help: 'created (with --status: got it) on or before; a day, week or month named includes all of it',
      },
      {
        flag: '--during <period>',
        help: 'created (with --status: got it) in this period: october, 2026-10, last-month, this-week, a day',
      },
      {
        flag: '--by-status-date',
        help: '--since/--until look at status_updated_at (the default with --status)',
      },
      { flag: '--by-created-date', help: '--since/--until look at created_at, also with --status' },
    ],
    read: (f, all) => dateCriterion(f, Array.isArray(all.status) && all.status.length > 0),
    matches: (order, d) => inRange(timeOf(order, d.field), d.since, d.until),
  }),
  amount: filter({
    flags: [
      { flag: '--min-amount <amount>', help: 'amount (initial_amount) at least this, like 10.00' },
      { flag: '--max-amount <amount>', help: 'amount (initial_amount) at most this' },
    ],
    read: (f) => minorRange(f),
    matches: (order, range) => {
      const amount = amountOf(order);
      if (amount === undefined) return false;
      return (
        !(range.min !== undefined && amount < range.min) && !(range.max !== undefined && amount > range.max)
      );
    },
  }),
};

type Filters = typeof ORDER_FILTERS;
type FilterFlag = Filters[keyof Filters]['flags'][number];

/** Every filter's flags, in the table's order: what `orders list` and `billing search` declare. */
export const ORDER_FILTER_FLAGS: readonly FilterFlag[] = Object.values(ORDER_FILTERS).flatMap(
  (f): readonly FilterFlag[] => f.flags,
);

/** The filters as the code reads them: status?: string[], minAmount?: string, byStatusDate?: boolean... */
export type OrderFilterFlags = FlagsOf<readonly FilterFlag[]>;

/** What was asked: the criterion of each filter given; an order must match every one (AND). */
export type OrderCriteria = {
  -readonly [K in keyof Filters]?: Filters[K] extends OrderFilter<readonly FlagSpec[], infer C> ? C : never;
};

// The table read as one list of (name, filter), each filter's criterion of its own type.
type AnyFilter = OrderFilter<readonly FlagSpec[], unknown>;
const ENTRIES = Object.entries(ORDER_FILTERS) as unknown as [keyof Filters, AnyFilter][];

/** The criteria the flags ask for, or undefined when no filter flag was given. */
export function orderCriteria(flags: OrderFilterFlags): OrderCriteria | undefined {
  const criteria: Record<string, unknown> = {};
  for (const [name, f] of ENTRIES) {
    const criterion = f.read(flags as never, flags);
    if (criterion !== undefined) criteria[name] = criterion;
  }
  return Object.keys(criteria).length > 0 ? (criteria as OrderCriteria) : undefined;
}

/** Whether the order matches every criterion given. */
export function matchesOrder(order: unknown, criteria: OrderCriteria): boolean {
  return ENTRIES.every(([name, f]) => criteria[name] === undefined || f.matches(order, criteria[name]));
}

// The filter flags of `orders list`, declared once: `orders list` takes them, `payments list`
// takes some of them (src/commands/find/payments.ts), and the MCP tool `list_orders` is made
// from them (src/commands/mcp/reads.ts). Each is read into criteria by src/commands/find/filters.ts
// and matched by src/commands/find/match.ts.

import { ORDER_STATUSES, ORDER_TYPES } from '../../domain/orders.js';
import { DATE_FORMS } from '../help-text.js';
import { type FlagsOf, gather } from '../verb.js';

export const ORDER_FILTERS = [
  {
    flag: '--status <status>',
    help: 'in any of these statuses: repeat or comma-separate (failed,suspended)',
    parse: gather,
    values: ORDER_STATUSES,
  },
  {
    flag: '--type <type>',
    help: `order type: ${Object.keys(ORDER_TYPES).join(', ')}`,
    parse: gather,
    values: Object.keys(ORDER_TYPES) as (keyof typeof ORDER_TYPES)[],
  },
  { flag: '--currency <code>', help: 'in this currency (EUR)' },
  { flag: '--customer <id>', help: "the customer's id" },
  { flag: '--email <email>', help: "the customer's email, in any case" },
  { flag: '--name <text>', help: "part of the customer's name, in any case" },
  {
    flag: '--invoice <id>',
    help: 'this invoice id (any case), or those starting so with a trailing * (INV-00012*)',
  },
  { flag: '--since <date>', help: `created (with --status: got that status) on or after (${DATE_FORMS})` },
  {
    flag: '--until <date>',
    help: 'created (with --status: got it) on or before; a day alone includes that day',
  },
  { flag: '--by-status-date', help: '--since/--until look at status_updated_at (the default with --status)' },
  { flag: '--by-created-date', help: '--since/--until look at created_at, also with --status' },
  { flag: '--min-amount <amount>', help: 'amount (initial_amount) at least this, like 10.00' },
  { flag: '--max-amount <amount>', help: 'amount (initial_amount) at most this' },
] as const;

/** The filters as the code reads them: status?: string[], minAmount?: string, byStatusDate?: boolean... */
export type OrderFilterFlags = FlagsOf<typeof ORDER_FILTERS>;

// Help text several command descriptions share (src/cli/kit/verb.ts).

import { EXPANSIONS } from '../../domain/expand.js';

/** Help on a production environment's guard (src/ops/runtime/confirm.ts). */
export const PRODUCTION_GUARD =
  '\nOn a production environment this asks for confirmation at a terminal; without one it\nrefuses (exit 2) unless --yes is given.\n';

/**
 * The argument of a command that takes one order: its id or its invoice id, turned into an id
 * by src/ops/orders/arg.ts.
 */
export const ORDER_ARG = 'order id, or its invoice id (INV-000123)';

/** The argument of a command that takes one order, or several order ids for a batch. */
export const ORDERS_ARG = 'order id or invoice id (INV-000123); several order ids for a batch';

/** "payments, next_payment": the names `get --expand` takes, per record, for an option's help. */
export const EXPANSION_NAMES = {
  order: EXPANSIONS.order.join(', '),
  customer: EXPANSIONS.customer.join(', '),
};

/** The forms every date flag takes (src/domain/dates.ts), for an option's help. */
export const DATE_FORMS =
  '2026-11-01, 2026-11-01T09:00, "01/11/2026 09:00", today, yesterday, monday, this-month, 7d, 2w; UTC unless a zone is given';

/** The help of an assumed route: the request the tool sends, and what a wrong state gets. */
export function assumedPath(path: string): string {
  return `\nThe interface document does not show this request; the tool assumes ${path} (src/domain/routes.ts).\nAn order in the wrong state is answered 422 with the reason (exit 7).\n`;
}

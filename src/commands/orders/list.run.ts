// billing orders list: its code; its description is ./list.ts.

import { iterateOrders, listOrdersPage } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { datesNote } from '../find/filters.js';
import { runList } from '../list.js';
import type { Runtime } from '../runtime.js';
import type { OptionsOf } from '../verb.js';
import { matchesOrder, orderCriteria } from './filters.js';
import type { listVerb } from './list.js';

export type ListOptions = OptionsOf<typeof listVerb>;

export async function list(rt: Runtime, _args: string[], flags: ListOptions): Promise<void> {
  const criteria = orderCriteria(flags);
  const filter = criteria ? { accept: (o: Order) => matchesOrder(o, criteria) } : undefined;
  const listed = await runList<Order>(
    rt,
    flags,
    {
      resource: 'order',
      fetchPage: (client, query) => listOrdersPage(client, query),
      iterate: (client, options) => iterateOrders(client, options),
    },
    filter,
  );
  const note = criteria && listed === 0 ? datesNote(criteria.dates) : undefined;
  if (note) rt.info(note);
}

// billing customers list: its description and its code.

import { iterateCustomers, listCustomersPage } from '../../api/customers.js';
import type { Customer } from '../../api/types.js';
import { limitFlag, PAGE_FLAGS } from '../../cli/kit/page-flags.js';
import { runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { matchesCustomer } from '../../ops/find/match.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const listVerb = verb({
  name: 'list',
  place: 10,
  summary: 'list customers',
  flags: [
    ...PAGE_FLAGS,
    { flag: '--email <email>', help: 'this email, in any case' },
    { flag: '--name <text>', help: 'part of the name, in any case' },
    limitFlag('customers'),
  ],
  examples: [
    'billing customers list',
    'billing customers list --email james.obrien@example.com',
    'billing customers list --name garcía',
  ],
  help: '\n--email and --name read every page and keep the matches; stderr says how many pages.\n',
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

export async function list(rt: Runtime, _args: string[], flags: OptionsOf<typeof listVerb>): Promise<void> {
  const criteria = {
    email: flags.email === undefined ? undefined : parse.text('--email', flags.email),
    name: flags.name === undefined ? undefined : parse.text('--name', flags.name),
  };
  const filtered = criteria.email !== undefined || criteria.name !== undefined;
  await runList<Customer>(
    rt,
    flags,
    {
      resource: 'customer',
      fetchPage: (client, query) => listCustomersPage(client, query),
      iterate: (client, options) => iterateCustomers(client, options),
    },
    filtered ? { accept: (c) => matchesCustomer(c, criteria) } : undefined,
  );
}

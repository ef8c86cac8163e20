// billing orders get: its description; its code is ./get.run.ts.

import { EXPANSION_NAMES } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { EXPANSIONS } from '../../domain/expand.js';

export const getVerb = verb({
  name: 'get',
  summary: 'one order, with its payments (refunds, what is left to refund) and its next payment',
  args: [
    {
      name: '<id>',
      help: 'order id, or its invoice id (INV-000123; INV-0001* for those starting so)',
      key: 'order',
    },
  ],
  flags: [
    {
      flag: '--expand <names>',
      help: `with -o json: add ${EXPANSION_NAMES.order} under those keys`,
      values: EXPANSIONS.order,
      commaList: true,
    },
  ],
  examples: [
    'billing orders get 177',
    'billing orders get INV-000123',
    "billing orders get 'INV-00012*'",
    'billing orders get 177 --json | jq .status.value',
    'billing orders get 177 -o json --expand payments | jq ".payments[] | {id, left_to_refund}"',
  ],
  help:
    '\nAn id that is not a number is looked up as an invoice id by reading the pages of orders:\n' +
    'an exact match stops the reading. No exact match: the orders whose invoice id holds the\n' +
    'text (or starts with it, for TEXT*) are listed, exit 2; one only is shown. None: exit 5.\n' +
    '\nWith -o json it prints the order as the service sends it (one request). --expand adds\n' +
    'the payments under "payments" (each debit or capture with "refunded" and "left_to_refund")\n' +
    'and the next scheduled payment under "next_payment" (null: none); if one cannot be read,\n' +
    'the command fails (exit as for any request) rather than leave it out.\n',
  output: 'record',
  moves: 'none',
});

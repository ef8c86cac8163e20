// billing checkout snippet: its description; its code is ./run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { BRANDS } from './brands.js';

export const snippetVerb = verb({
  name: 'snippet',
  summary: "the HTML to put on the merchant's page: the widget script (with integrity) and the form",
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [BRANDS, { flag: '--renew', help: 'make a new checkout first (else the current one is used)' }],
  examples: [
    'billing checkout snippet 1042',
    'billing checkout snippet 1042 --renew --brands "VISA MASTER AMEX" > form.html',
  ],
  help:
    '\nThe current checkout is read with GET /orders/{id}/custom_checkout, a path the interface\n' +
    'document does not show; where the service lacks it, use --renew.\n',
  output: 'value',
  moves: 'data',
});

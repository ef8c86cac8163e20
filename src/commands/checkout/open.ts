// billing checkout open: its description; its code is ./run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { BRANDS } from './brands.js';

const TEST_CARDS =
  "\nTest cards of the emulator's gateway (any future expiry MM/YY, any 3-digit CVV):\n" +
  '  4200000000000000  approves (order → active)\n' +
  '  5454545454545454  approves (Mastercard)\n' +
  '  4000000000000002  soft decline, lack of funds (order → failed; it can be paid again)\n' +
  '  4000000000000069  hard decline, stolen card (order → rejected)\n' +
  '  4000000000003220  asks for a 3-D Secure confirmation, then approves\n';

export const openVerb = verb({
  name: 'open',
  summary:
    'serve a local page holding the snippet, open it in the browser, and keep the checkout fresh until Ctrl-C',
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--port <port>',
      help: 'port of the local page on 127.0.0.1 (0 picks a free one)',
      default: '4243',
    },
    { flag: '--no-browser', help: 'do not open a browser; just print the address' },
    BRANDS,
    {
      flag: '--poll <seconds>',
      help: "how often to check the checkout's validity and the order's status",
      default: '5',
    },
  ],
  examples: [
    'billing --env local checkout open 1042',
    'billing orders create … --checkout --redirect-url http://127.0.0.1:4243/paid --failed-redirect-url http://127.0.0.1:4243/declined',
    'billing checkout open 1042 --no-browser --port 0',
  ],
  help:
    "\nThe page shows the order's status and the time the checkout has left; when it expires the\n" +
    'checkout is renewed and the page reloads with the new one. Any other path of the local\n' +
    'server (for example /paid) is a landing page for redirect_url and failed_redirect_url.\n' +
    'The address is printed on stdout, the rest on stderr. Ctrl-C stops it (exit 0).\n' +
    TEST_CARDS,
  output: 'none',
  moves: 'data',
});

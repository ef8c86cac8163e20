// billing links url: its description; its code is ../links.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const urlVerb = verb({
  name: 'url',
  summary:
    'make and print the payment link (a draft order becomes pending); --qr draws it as a QR code, --png writes it to a file',
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--qr',
      help: 'draw the QR code in the terminal (plain text blocks when stdout is not a terminal)',
    },
    { flag: '--png <file>', help: 'write the QR code as a PNG image' },
    { flag: '--force', help: 'with --png, replace an existing file' },
  ],
  examples: [
    'billing links url 1042',
    'billing links url 1042 --qr',
    'billing links url 1042 --png order-1042.png',
    'billing links url 1042 --json | jq -r .payment_link',
  ],
  help:
    '\nMaking the link moves a draft order to pending, as sending it does. A complete, cancelled or\n' +
    'rejected order has nothing to pay: no link is made (exit 2).\n' +
    'With --qr the link is still printed, after the code. The PNG is written whole or not at\n' +
    'all (a temporary file, then renamed); an existing file is kept unless --force.\n',
  output: 'value',
  moves: 'data',
  words: ['qr'],
});

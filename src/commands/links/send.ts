// What `links email` and `links sms` share: the batch flags, with --resend-in-doubt after them,
// and the help of a link sent.

import { batchFlags } from '../verb.js';

export const SEND_FLAGS = [
  ...batchFlags('order'),
  {
    flag: '--resend-in-doubt',
    help: 'with several ids or --file: send again the links an earlier run may have sent (its answer was lost); without it they are not sent again',
  },
] as const;

export const LINK_DONE =
  'A link is done once the service answered the send: a re-run never sends it\n' +
  'again. Nothing in an order shows a sent message, so a row whose answer was lost\n' +
  'is sent again on the next run.\n';

// What `links email` and `links sms` share: the help of a link sent (their batch flags,
// --resend-in-doubt among them, are their action's: src/ops/batch/action-table.ts).

export const LINK_DONE =
  'A link is done once the service answered the send: a re-run never sends it\n' +
  'again. Nothing in an order shows a sent message, so a row whose answer was lost\n' +
  'is sent again on the next run.\n';

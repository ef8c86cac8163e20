// billing webhooks listen: its description; its code is ./listen.run.ts.

import { collect, verb } from '../../cli/kit/verb.js';
import { DEFAULT_WEBHOOK_PATH } from '../../domain/local.js';
import { SECRET_FLAGS } from './secret-flags.js';

export const listenVerb = verb({
  name: 'listen',
  summary: 'receive deliveries: verify each on its raw body, show one line per event, forward to your app',
  flags: [
    { flag: '--port <port>', help: 'port to listen on (0 picks a free one)', default: '4242' },
    { flag: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
    { flag: '--path <path>', help: 'path the deliveries are posted to', default: DEFAULT_WEBHOOK_PATH },
    ...SECRET_FLAGS,
    { flag: '--skip-verify', help: 'do not check signatures (loudly; never with --tunnel)' },
    {
      flag: '--tolerance <seconds>',
      help: 'how old, or how far ahead, a signature timestamp may be',
      default: '300',
    },
    {
      flag: '--events <names>',
      help: 'only these events (comma-separated or repeated); others are acknowledged',
      parse: collect,
      default: [],
    },
    {
      flag: '--forward-to <url>',
      help: "send each delivery, bytes and headers intact, to your app: a URL, or a short form (3000 and localhost:3000 get listen's --path, e.g. http://localhost:3000/webhooks; 3000/hooks and /hooks keep theirs)",
    },
    { flag: '--forward-timeout <seconds>', help: 'how long the app may take to answer', default: '10' },
    { flag: '--record <file>', help: 'append each delivery (headers and raw body) to this NDJSON file' },
    { flag: '--tunnel <kind>', help: 'open a public address: ngrok (token in NGROK_AUTHTOKEN)' },
    {
      flag: '--print-secret',
      help: "print only the signing secret on stdout and exit (the emulator's, when the environment is one)",
    },
    {
      flag: '--inspect',
      help: 'serve a page on 127.0.0.1 that shows each delivery live and replays it (or an edited copy) to the app',
    },
    { flag: '--inspect-port <port>', help: 'port of the --inspect page (0 picks a free one)', default: '0' },
  ],
  examples: [
    'billing --env local webhooks listen',
    'export BILLING_WEBHOOK_SECRET=$(billing --env local webhooks listen --print-secret)',
    'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect',
    'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect --inspect-port 4040',
    'billing --env local webhooks listen --forward-to http://localhost:3000/hooks --events order.active,order.failed',
    'billing webhooks listen --secret-file secret.txt --forward-to http://localhost:3000/webhooks',
    'billing --env local webhooks listen --json | jq -r .event',
    'billing webhooks listen --tunnel ngrok --forward-to http://localhost:3000/webhooks --record deliveries.ndjson',
  ],
  help:
    '\nAgainst an emulator (a local environment whose address answers /__emulator/status) listen\n' +
    'registers its address as a webhook endpoint, prints the signing secret, and removes the endpoint\n' +
    'when it stops; deliveries waiting for a retry there are sent at once. Against a service it says\n' +
    'which address to paste into the dashboard. Events left out by --events are answered 200 and shown\n' +
    'as skipped. Events sent by `webhooks trigger` without a state change behind them are marked synthetic.\n' +
    '--inspect prints a 127.0.0.1 address with a per-run token: a page listing each delivery live, where\n' +
    'Replay (or Edit and replay) sends it to --forward-to again, re-signed only if it was verified on\n' +
    'arrival (else marked X-Billing-Unverified), an edit marked X-Billing-Edited everywhere it shows.\n' +
    '\nA delivery the app does not accept (error status, no answer) is answered with an error too, so the\n' +
    'service retries it; a repeat of a delivery already accepted is answered 200 and not forwarded again.\n' +
    'Rejected (400): missing, malformed, wrong or stale signatures. 413: bodies over 1 MiB.\n',
  output: 'list',
  moves: 'none',
});

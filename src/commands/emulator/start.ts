// billing emulator start: its description; its code is ./run.ts.

import { collect, command, verb } from '../../cli/kit/verb.js';

export const startVerb = verb({
  name: 'start',
  place: 10,
  summary: 'start the emulator (the `local` environment points at it)',
  flags: [
    { flag: '--port <port>', help: 'port to listen on', default: '4010' },
    { flag: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
    { flag: '--seed <seed>', help: 'demo (customers, products, ~200 orders) or empty', default: 'empty' },
    { flag: '--fixtures <file>', help: 'then apply this fixture (JSON or YAML; see billing emulator apply)' },
    {
      flag: '--data <file>',
      help: 'keep the state in this file (written atomically) so it survives a restart',
    },
    { flag: '--latency <ms>', help: 'delay every API answer by this many milliseconds', default: '0' },
    {
      flag: '--fail-rate <rate>',
      help: 'answer this fraction of API requests with 502 (0 to 1)',
      default: '0',
    },
    { flag: '--detach', help: 'run in the background and return once it has bound the port' },
    {
      flag: '--fault <spec>',
      help: 'inject a fault, ROUTE:MODE[:RATE[:MS]], e.g. refund:after:0.1 (modes: before, after, drop-after, late, slow; refund:late:1:2000 applies, answers 502 and shows the record 2 s later; repeat for more)',
      parse: collect,
      default: [],
    },
    {
      flag: '--webhook-url <url>',
      help: 'send order events to this endpoint (repeat for more)',
      parse: collect,
      default: [],
    },
    {
      flag: '--webhook-secret-file <file>',
      help: 'signing secret of the deliveries: the first line of this file, readable only by you ("-": stdin); default the local environment\'s',
    },
    // Never a flag value (ps shows it to every user): declared only to be refused.
    { flag: '--webhook-secret <secret>', help: '', hidden: true },
    // Set by --detach for its child: once bound, one JSON line {url, pid} on file descriptor 3.
    { flag: '--ready-fd3', help: '', hidden: true },
  ],
  output: 'answer',
  moves: 'none',
});

export default command(startVerb, async () => (await import('./run.js')).start);

// billing webhooks trigger: its description; its code is ./send.ts.

import { verb } from '../../cli/kit/verb.js';
import { SECRET_FLAGS } from './secret-flags.js';

export const triggerVerb = verb({
  name: 'trigger',
  summary:
    'against an emulator: make the change happen on a real order, so the emulator sends the event; else send one synthetic signed event',
  args: [{ name: '<event>', help: 'event name, e.g. order.active or order.test' }],
  flags: [
    { flag: '--to <url>', help: 'send a synthetic event here (default http://127.0.0.1:4242/webhooks)' },
    {
      flag: '--order <id>',
      help: 'the order: changed for real on an emulator (default: a new one); else the event is built from it',
    },
    {
      flag: '--customer <id>',
      help: 'against an emulator: the customer of the new order (default: one made now, with a card that suits the event)',
    },
    { flag: '--synthetic', help: 'send a made-up event even against an emulator (no order changes)' },
    ...SECRET_FLAGS,
  ],
  examples: [
    'billing --env local webhooks trigger order.active',
    'billing --env local webhooks trigger order.failed --order 206',
    'billing --env local webhooks trigger order.active --customer 12',
    'billing --env local webhooks trigger order.paused --synthetic',
    'billing --env local webhooks trigger order.paused --order 1042 --to http://localhost:3000/webhooks',
    'billing webhooks trigger order.test --secret-file secret.txt --to http://localhost:3000/webhooks --json',
  ],
  help:
    '\nAgainst an emulator, order.<status> happens for real: on --order, or on a new order made through\n' +
    'the API (a subscription for paused, suspended, review, complete) for --customer or a customer and\n' +
    'product made now and marked "made by billing webhooks trigger" (a card that approves; 0002 for\n' +
    "failed and suspended, 0069 for rejected), so nothing it leaves sends further events; moved by the emulator's own rules\n" +
    '(a first payment approved or declined, a scheduled payment charged, pause, resume, cancel), each\n' +
    'step an event; it delivers to its endpoints (webhooks listen registers one). A status its rules do\n' +
    "not reach from the order's, or the one it has, is refused (exit 2). --synthetic, --to, and any\n" +
    'trigger against a service send a made-up event marked X-Billing-Synthetic: true; against an\n' +
    "emulator without --to it goes to the emulator's endpoints (order.test: its Send test event).\n",
  output: 'list',
  moves: 'data',
});

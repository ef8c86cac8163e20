// The commands of `billing emulator`, in the order of its help: one file each, loaded when it
// runs, but start (its code in ./run.ts, the one module that loads the emulator) and outbox
// (../links/run.ts); its group `webhooks` (the running emulator's endpoints) last.

import { command, type Entry } from '../../cli/kit/verb.js';
import { outboxVerb } from './outbox.js';
import { startVerb } from './start.js';

export const VERBS: readonly Entry[] = [
  command(startVerb, async () => (await import('./run.js')).start),
  () => import('./stop.js'),
  () => import('./status.js'),
  () => import('./reset.js'),
  () => import('./apply.js'),
  command(outboxVerb, async () => (await import('../links/run.js')).outbox),
  () => import('./clock.js'),
  () => import('./deliveries.js'),
  () => import('./send-test-event.js'),
  {
    name: 'webhooks',
    summary: "the running emulator's webhook endpoints: add, list, remove (no restart)",
    examples: [
      'billing emulator webhooks add http://localhost:3000/webhooks',
      'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
      'billing emulator webhooks list',
      'billing emulator webhooks remove http://localhost:3000/webhooks',
    ],
    verbs: async () => (await import('./webhooks/index.js')).VERBS,
  },
];

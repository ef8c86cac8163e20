// The verbs of `billing emulator`, in the order of its help, each with the lazy import of its
// code; its group `webhooks` (the running emulator's endpoints) last.

import { command, type Group, type Runnable } from '../../cli/kit/verb.js';
import { applyVerb } from './apply.js';
import { clockVerb } from './clock.js';
import { deliveriesVerb } from './deliveries.js';
import { outboxVerb } from './outbox.js';
import { resetVerb } from './reset.js';
import { sendTestEventVerb } from './send-test-event.js';
import { startVerb } from './start.js';
import { statusVerb } from './status.js';
import { stopVerb } from './stop.js';

export const VERBS: readonly (Runnable | Group)[] = [
  command(startVerb, async () => (await import('./run.js')).start),
  command(stopVerb, async () => (await import('./run.js')).stop),
  command(statusVerb, async () => (await import('./run.js')).status),
  command(resetVerb, async () => (await import('./run.js')).reset),
  command(applyVerb, async () => (await import('./run.js')).apply),
  command(outboxVerb, async () => (await import('../links/run.js')).outbox),
  command(clockVerb, async () => (await import('./run.js')).clock),
  command(deliveriesVerb, async () => (await import('./deliveries.run.js')).deliveries),
  command(sendTestEventVerb, async () => (await import('./deliveries.run.js')).sendTestEvent),
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

// billing emulator webhooks: the running emulator's endpoints, a group of billing emulator's,
// last in its help. Its commands are the files of this folder (scripts/commands-list.mjs).

import type { Group } from '../../../cli/kit/verb.js';

export default {
  name: 'webhooks',
  place: 100,
  summary: "the running emulator's webhook endpoints: add, list, remove (no restart)",
  examples: [
    'billing emulator webhooks add http://localhost:3000/webhooks',
    'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
    'billing emulator webhooks list',
    'billing emulator webhooks remove http://localhost:3000/webhooks',
  ],
  verbs: async () => (await import('commands:.')).VERBS,
} satisfies Group;

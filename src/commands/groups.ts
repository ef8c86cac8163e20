// The command groups declared by descriptions (src/commands/verb.ts): each group's name and
// line, for `billing --help`, and the lazy import of its verbs, built only when the command
// line names the group (or for completion and `billing help WORD`, every group).

import type { Runnable } from './verb.js';

export interface Group {
  readonly name: string;
  readonly summary: string;
  readonly verbs: () => Promise<readonly Runnable[]>;
}

export const GROUPS = {
  orders: {
    name: 'orders',
    summary: 'list, inspect and create orders',
    verbs: async () => (await import('./orders/index.js')).VERBS,
  },
} as const satisfies Record<string, Group>;

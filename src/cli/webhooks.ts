// Declarations of `billing webhooks` commands; their code is in src/commands/webhooks.ts, loaded on use.

import type { Command } from 'commander';
import type { Run } from './shared.js';

export function defineWebhooks(_program: Command, _run: Run): void {}

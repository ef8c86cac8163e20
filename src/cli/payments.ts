// Declarations of `billing payments` commands; their code is in src/commands/payments.ts, loaded on use.

import type { Command } from 'commander';
import type { Run } from './shared.js';

export function definePayments(_program: Command, _run: Run): void {}

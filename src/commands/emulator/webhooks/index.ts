// The verbs of `billing emulator webhooks`, the running emulator's endpoints; their code is
// src/commands/emulator/webhooks/run.ts, loaded on use.

import { command } from '../../../cli/kit/verb.js';
import { addVerb } from './add.js';
import { listVerb } from './list.js';
import { removeVerb } from './remove.js';

export const VERBS = [
  command(addVerb, async () => (await import('./run.js')).add),
  command(listVerb, async () => (await import('./run.js')).list),
  command(removeVerb, async () => (await import('./run.js')).remove),
];

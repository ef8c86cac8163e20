// The verbs of `billing emulator webhooks`, the running emulator's endpoints; their code is
// src/commands/emulator/webhooks/run.ts, loaded on use.

import { command } from '../../../cli/kit/verb.js';
import { addVerb } from './add.js';
import { listVerb } from './list.js';
import { removeVerb } from './remove.js';

const endpoints = () => import('./run.js');

export const VERBS = [
  command(addVerb, async () => (await endpoints()).add),
  command(listVerb, async () => (await endpoints()).list),
  command(removeVerb, async () => (await endpoints()).remove),
];

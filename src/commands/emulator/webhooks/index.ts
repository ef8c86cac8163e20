// The verbs of `billing emulator webhooks`, the running emulator's endpoints; their code is
// src/commands/webhooks/endpoints.ts, loaded on use.

import { command } from '../../../cli/kit/verb.js';
import { addVerb } from './add.js';
import { listVerb } from './list.js';
import { removeVerb } from './remove.js';

const endpoints = () => import('../../webhooks/endpoints.js');

export const VERBS = [
  command(addVerb, async () => (await endpoints()).add),
  command(listVerb, async () => (await endpoints()).list),
  command(removeVerb, async () => (await endpoints()).remove),
];

// billing config path: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { writeValue } from './settings.js';

export const pathVerb = verb({
  name: 'path',
  place: 60,
  summary: 'where the config file is',
  examples: ['billing config path'],
  output: 'value',
  moves: 'none',
});

export default defineCommand(pathVerb, path);

async function path(rt: Runtime): Promise<void> {
  await writeValue(rt, (await rt.config()).path);
}

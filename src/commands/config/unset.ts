// billing config unset: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { SETTABLE_KEYS } from '../../config/store.js';

const KEYS = SETTABLE_KEYS;

export const unsetVerb = verb({
  name: 'unset',
  summary: 'remove one setting of the selected environment',
  args: [{ name: '<key>', help: '', values: KEYS }],
  examples: ['billing config unset webhook_secret --env sandbox'],
  output: 'none',
  moves: 'none',
});

// billing config get: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { SETTABLE_KEYS } from '../../config/store.js';

const KEYS = [...SETTABLE_KEYS, 'token'];

export const getVerb = verb({
  name: 'get',
  summary: 'one setting of the selected environment',
  args: [{ name: '<key>', help: KEYS.join(', '), values: KEYS }],
  examples: ['billing config get profile_id'],
  output: 'value',
  moves: 'none',
});

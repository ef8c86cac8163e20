// billing config set: its description; its code is ./run.ts.

import { SETTABLE_KEYS } from '../../config/store.js';
import { verb } from '../verb.js';

const KEYS = SETTABLE_KEYS;

export const setVerb = verb({
  name: 'set',
  summary: 'change one setting of the selected environment (the token only through login)',
  args: [
    { name: '<key>', help: KEYS.join(', '), values: KEYS },
    { name: '<value>', help: '' },
  ],
  examples: ['billing config set base_url https://api.example/api/v2 --env sandbox'],
  output: 'none',
  moves: 'none',
});

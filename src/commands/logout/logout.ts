// billing logout: its description; its code is ./auth.ts.

import { verb } from '../../cli/kit/verb.js';

export const logoutVerb = verb({
  name: 'logout',
  summary: 'remove the stored token of an environment',
  output: 'none',
  moves: 'none',
});

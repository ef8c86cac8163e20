// billing customers list: its description; its code is ./run.ts.

import { limitFlag, PAGE_FLAGS } from '../../cli/kit/page-flags.js';
import { verb } from '../../cli/kit/verb.js';

export const listVerb = verb({
  name: 'list',
  summary: 'list customers',
  flags: [
    ...PAGE_FLAGS,
    { flag: '--email <email>', help: 'this email, in any case' },
    { flag: '--name <text>', help: 'part of the name, in any case' },
    limitFlag('customers'),
  ],
  examples: [
    'billing customers list',
    'billing customers list --email james.obrien@example.com',
    'billing customers list --name garcía',
  ],
  help: '\n--email and --name read every page and keep the matches; stderr says how many pages.\n',
  output: 'list',
  moves: 'none',
});

// billing customers list: its description; its code is ./run.ts.

import { verb } from '../verb.js';

export const listVerb = verb({
  name: 'list',
  summary: 'list customers',
  flags: [
    { flag: '--page <n>', help: 'page to read (from 1)' },
    { flag: '--items <n>', help: 'records per page, 1 to 100' },
    { flag: '--all', help: 'read every page' },
    { flag: '--email <email>', help: 'this email, in any case' },
    { flag: '--name <text>', help: 'part of the name, in any case' },
    { flag: '--limit <n>', help: 'stop after this many customers' },
  ],
  examples: [
    'billing customers list',
    'billing customers list --email james.obrien@example.com',
    'billing customers list --name garcía',
  ],
  help: '\n--email and --name read every page and keep the matches; stderr says how many pages.\n',
  output: 'list',
});

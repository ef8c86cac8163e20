// The commands of `billing config`, in the order of its help: one file each, loaded when it runs.

import type { LazyCommand } from '../../cli/kit/verb.js';

export const VERBS: readonly LazyCommand[] = [
  () => import('./list.js'),
  () => import('./get.js'),
  () => import('./set.js'),
  () => import('./unset.js'),
  () => import('./use.js'),
  () => import('./path.js'),
];

// The commands of `billing schedule`, in the order of its help: one file each, loaded when it runs.

export const VERBS = [
  () => import('./execute.js'),
  () => import('./skip.js'),
  () => import('./reschedule.js'),
  () => import('./merge.js'),
  () => import('./update.js'),
];

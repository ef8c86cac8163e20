// The commands of `billing webhooks`, in the order of its help: one file each, loaded when it runs.

export const VERBS = [
  () => import('./listen.js'),
  () => import('./trigger.js'),
  () => import('./replay.js'),
  () => import('./sign.js'),
  () => import('./verify.js'),
];

// The commands of `billing customers`, in the order of its help: one file each, loaded when it runs.

export const VERBS = [
  () => import('./list.js'),
  () => import('./get.js'),
  () => import('./create.js'),
  () => import('./delete.js'),
];

// The commands of `billing products`, in the order of its help: one file each, loaded when it runs.

export const VERBS = [
  () => import('./list.js'),
  () => import('./get.js'),
  () => import('./create.js'),
  () => import('./delete.js'),
];

// The commands of `billing checkout`, in the order of its help: one file each, loaded when it runs.

export const VERBS = [() => import('./renew.js'), () => import('./snippet.js'), () => import('./open.js')];

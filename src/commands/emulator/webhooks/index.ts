// The commands of `billing emulator webhooks`, the running emulator's endpoints, in the order of
// its help: one file each, loaded when it runs.

export const VERBS = [() => import('./add.js'), () => import('./list.js'), () => import('./remove.js')];

// `import('commands:./orders')`: a group's commands made from its folder by the build
// (scripts/commands-list.mjs), in the order of help.
declare module 'commands:*' {
  export const VERBS: readonly import('../cli/kit/verb.js').Entry[];
}

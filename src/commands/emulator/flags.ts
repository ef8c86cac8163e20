// Flags several emulator commands take (data only, for the descriptions beside it).

/** The --port of every emulator command but start. */
export const PORT_FLAG = {
  flag: '--port <port>',
  help: "port of the emulator (default: the selected environment's when it is an emulator's, else local's)",
} as const;

/** The --limit of the emulator's lists (outbox, deliveries). */
export const LIMIT_FLAG = { flag: '--limit <n>', help: 'show at most this many', default: '20' } as const;

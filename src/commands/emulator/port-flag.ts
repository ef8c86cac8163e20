// The --port of every emulator command but start (data only, for the descriptions beside it).

export const PORT_FLAG = {
  flag: '--port <port>',
  help: "port of the emulator (default: the selected environment's when it is an emulator's, else local's)",
} as const;

// What `get --expand` may add under a record, per command: the names `orders get` and
// `customers get` take, their help and `billing help fields` list, and the MCP tools' schemas.

export const EXPANSIONS = {
  order: ['payments', 'next_payment'],
  customer: ['orders', 'payments'],
} as const;

export type Expandable = keyof typeof EXPANSIONS;
export type Expansion<R extends Expandable> = (typeof EXPANSIONS)[R][number];

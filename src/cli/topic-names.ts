// The names of the help topics, apart from their text (src/cli/topics.ts, loaded on use).

export const TOPICS = ['environment', 'exit-codes', 'output', 'formatting', 'dates'] as const;
export type Topic = (typeof TOPICS)[number];

// The payment record's statuses and kinds, as the emulator sends them (docs/decisions.md: the
// payment record). `payments list` checks its flags against them and the MCP tools' schemas
// are made from them: one list.

export const PAYMENT_STATUSES = ['succeeded', 'failed', 'pending'] as const;
export const PAYMENT_KINDS = ['preauthorization', 'debit', 'capture', 'refund', 'reversal'] as const;

/** The kinds whose money can be refunded (when they succeeded). */
export const REFUNDABLE_KINDS: readonly string[] = ['debit', 'capture'];

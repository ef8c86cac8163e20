// The customer notifications the emulator sends to its outbox (src/emulator/billing/
// notifications.ts) and what each is called for people (`orders timeline`). A payment link
// in the outbox has no kind.

export const NOTICE_KINDS = {
  pending_reminder: 'payment reminder',
  renewal_notice: 'renewal notice',
  paused: 'pause notice',
  resumed: 'resume notice',
  card_expiring: 'card expiry warning',
  card_expired: 'card expired notice',
  soft_decline: 'decline notice',
  hard_decline: 'decline notice (final)',
} as const;

export type NoticeKind = keyof typeof NOTICE_KINDS;

/** What a message of the outbox is, for people: a notice by its kind, a payment link without one. */
export function noticeName(kind: string): string {
  if (kind === '') return 'payment link';
  return Object.hasOwn(NOTICE_KINDS, kind) ? NOTICE_KINDS[kind as NoticeKind] : kind.replaceAll('_', ' ');
}

// Amounts travel as decimal strings ("12.50"); arithmetic happens in integer minor
// units (BigInt) so that sums and refund checks never meet floating point.

const AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;

export class AmountError extends Error {
  override name = 'AmountError';
}

/** True when `text` is a non-negative decimal with at most two decimals ("12", "12.5", "0.99"). */
export function isAmount(text: string): boolean {
  return AMOUNT.test(text);
}

/** Parses a decimal string into minor units: "12.5" → 1250n. Throws AmountError on anything else. */
export function toMinor(text: string): bigint {
  const match = AMOUNT.exec(text);
  if (!match) {
    throw new AmountError(
      `invalid amount "${text}": use a decimal number with at most two decimals, like 12.50`,
    );
  }
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return BigInt(whole) * 100n + BigInt(fraction);
}

/** Minor units back to a two-decimal string: 1250n → "12.50". */
export function fromMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Parses an amount given by a user: a decimal string greater than zero. */
export function parsePositiveAmount(text: string): string {
  const minor = toMinor(text.trim());
  if (minor <= 0n) throw new AmountError(`invalid amount "${text}": it must be greater than 0`);
  return fromMinor(minor);
}

/** Normalises a service amount (string or number) for display, without touching its value. */
export function normaliseAmount(value: unknown): string | undefined {
  if (typeof value === 'string' && isAmount(value)) return fromMinor(toMinor(value));
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value.toFixed(2);
  return undefined;
}

export function sumAmounts(amounts: readonly string[]): string {
  return fromMinor(amounts.reduce((total, a) => total + toMinor(a), 0n));
}

// What every reader of the service's JSON asks first: is this value an object with fields, and
// what is the value of a `{value, label}` field. The service is untrusted: a reader checks the
// type of what it reads, with these.

export type AnyRecord = Record<string, unknown>;

/** An object with fields (not null, not an array). */
export function isRecord(value: unknown): value is AnyRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `{value, label}` field (status, order_type) as its value, or a plain string or number as text. */
export function codeOf(value: unknown): string | undefined {
  const code = isRecord(value) ? value.value : value;
  return typeof code === 'string' ? code : typeof code === 'number' ? String(code) : undefined;
}

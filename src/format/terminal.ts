// The one place that makes text safe to print. Whatever the service sends (a name, an error
// message, a body under --debug) is data: control characters, bidi overrides and line
// separators are shown escaped (`\x1b`, `\u202e`), never obeyed by the terminal nor silently
// dropped; the secrets this process holds (the token, the webhook secret) are replaced by
// *** wherever they appear; and credentials in a URL (`user:pass@`) are masked. Every
// writer of text for a human (tables, TSV, CSV, info lines, hints, errors, --debug) uses
// safeLine or safeText. JSON output stays exact: JSON.stringify escapes C0 controls itself,
// and safeJson escapes the rest as \uXXXX, which is the same JSON value.

/** C0 and C1 controls, DEL, bidi embeddings/overrides/isolates, line and paragraph separators. */
const UNSAFE_BLOCK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** The same plus line feed: in a one-line context a forged newline must not start a fake line. */
const UNSAFE_LINE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** scheme://user:password@ or scheme://user@ */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Each secret, and the form JSON.stringify gives it inside a string (made once: redactJson runs on every line of a list). */
const secrets = new Map<string, string>();

/**
 * A value this process holds that must never be printed (the token in use, a webhook
 * secret): from now on it is shown as *** in everything safeLine and safeText return.
 * Values shorter than 4 characters are not registered: hiding them would garble ordinary text.
 */
export function hideSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.set(value, JSON.stringify(value).slice(1, -1));
}

/**
 * Forgets every secret registered: for a process that runs main() more than once (the suite's
 * in-process runs, test/helpers/in-process.ts), so that one run's secrets do not hide what a
 * later run forgot to hide.
 */
export function forgetSecrets(): void {
  secrets.clear();
}

/** Removes the secrets we hold (by value) and credentials in URLs. */
export function redact(value: string): string {
  let out = value;
  for (const secret of secrets.keys()) if (out.includes(secret)) out = out.split(secret).join('***');
  return maskUrlCredentials(out);
}

/** "https://user:pass@host/x" → "https://***@host/x". */
export function maskUrlCredentials(value: string): string {
  return value.includes('@') ? value.replace(URL_CREDENTIALS, '$1***@') : value;
}

/** For one line or one cell: tabs become spaces, every other control (newlines too) is shown escaped. */
export function safeLine(value: string): string {
  return redact(value.replace(/\t/g, ' ').replace(UNSAFE_LINE, escapeChar));
}

/**
 * For text that may span lines (a --debug stack, a CSV cell): newlines and tabs are kept; a
 * carriage return too only when asked (inside a quoted CSV field it is data, RFC 4180).
 */
export function safeText(value: string, keepCarriageReturn = false): string {
  const escaped = value.replace(UNSAFE_BLOCK, (ch) =>
    ch === '\r' && keepCarriageReturn ? ch : escapeChar(ch),
  );
  return redact(escaped);
}

/** JSON.stringify leaves C1 controls, bidi overrides and line separators as they are. */
const JSON_UNSAFE = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text safe for a terminal and still the same JSON value: what JSON.stringify leaves raw
 * (DEL, C1 controls, bidi overrides, line separators) is written as a \uXXXX escape.
 */
export function safeJson(json: string): string {
  return redactJson(
    json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** In JSON text a URL's credentials end at its string's closing quote at the latest. */
const JSON_URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"\\]+@/gi;

/**
 * redact() for JSON text, which stays the same JSON (a string keeps its quotes): the secrets
 * we hold, as JSON writes them inside a string, and credentials in URLs. What the service
 * echoes back (`billing api`, `-o json`) is masked as on stderr.
 */
function redactJson(json: string): string {
  let out = json;
  for (const written of secrets.values()) {
    if (out.includes(written)) out = out.split(written).join('***');
  }
  // Both tests first: a list of orders has an email in every record but rarely a URL, and the
  // expression alone costs ~0.3 s over 100,000 orders.
  return out.includes('@') && out.includes('://') ? out.replace(JSON_URL_CREDENTIALS, '$1***@') : out;
}

// X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>.
// The Stripe scheme (docs/decisions.md, "Webhook signatures"). Shared by the CLI and the emulator,
// so it depends on node:crypto only.

import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DELIVERY_HEADER = 'x-service-delivery';
/** Seconds a timestamp may be old, or ahead of our clock. */
export const DEFAULT_TOLERANCE_S = 300;

const HEX64 = /^[0-9a-f]{64}$/;

export type Payload = string | Uint8Array;

/** hex(HMAC-SHA256(secret, `${timestamp}.${payload}`)), over the payload's exact bytes. */
export function computeSignature(secret: string, timestamp: number, payload: Payload): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** The header value for a payload: `t=…,v1=…`. */
export function signatureHeader(secret: string, payload: Payload, timestamp: number = unixNow()): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, payload)}`;
}

export type VerifyFailure = 'missing' | 'malformed' | 'no_signature' | 'mismatch' | 'too_old' | 'too_new';

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: VerifyFailure; message: string; timestamp?: number };

export interface VerifyOptions {
  /** Seconds either side of `now`; default 300. */
  toleranceS?: number;
  /** Unix seconds; default the clock. */
  now?: number;
}

interface ParsedHeader {
  timestamp: number;
  v1: string[];
}

/**
 * Reads `t=…,v1=…[,v1=…][,v0=…]`. Any order; unknown schemes are ignored; exactly one
 * t is required. A v1 that is not 64 hex digits can never match, so it is dropped here.
 */
export function parseSignatureHeader(header: string): ParsedHeader | { error: string } {
  let timestamp: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return { error: `"${clip(item)}" is not a key=value pair` };
    const key = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (key === 't') {
      if (timestamp !== undefined) return { error: 'more than one t= timestamp' };
      if (!/^\d{1,12}$/.test(value)) return { error: `t=${clip(value)} is not a unix timestamp` };
      timestamp = Number(value);
    } else if (key === 'v1' && HEX64.test(value)) {
      v1.push(value);
    }
  }
  if (timestamp === undefined) return { error: 'no t= timestamp' };
  return { timestamp, v1 };
}

/** Checks a header against the exact bytes that arrived, before anything parses them. */
export function verifySignature(
  payload: Payload,
  header: string | undefined,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  const tolerance = options.toleranceS ?? DEFAULT_TOLERANCE_S;
  if (header === undefined || header.trim() === '') {
    return { ok: false, reason: 'missing', message: 'no X-Service-Signature header' };
  }
  const parsed = parseSignatureHeader(header);
  if ('error' in parsed) {
    return { ok: false, reason: 'malformed', message: `malformed X-Service-Signature: ${parsed.error}` };
  }
  const { timestamp } = parsed;
  if (parsed.v1.length === 0) {
    return {
      ok: false,
      reason: 'no_signature',
      message: 'X-Service-Signature has no v1= signature of 64 lowercase hex digits',
      timestamp,
    };
  }
  const expected = Buffer.from(computeSignature(secret, timestamp, payload), 'hex');
  // Compare every candidate so that the time taken does not depend on which one matched.
  let matched = false;
  for (const candidate of parsed.v1) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  if (!matched) {
    return {
      ok: false,
      reason: 'mismatch',
      message: 'no v1 signature matches: a different secret, or a body changed on the way',
      timestamp,
    };
  }
  const now = options.now ?? unixNow();
  if (timestamp < now - tolerance) {
    return {
      ok: false,
      reason: 'too_old',
      message: `the timestamp is ${now - timestamp} s old (tolerance ${tolerance} s)`,
      timestamp,
    };
  }
  if (timestamp > now + tolerance) {
    return {
      ok: false,
      reason: 'too_new',
      message: `the timestamp is ${timestamp - now} s ahead of this clock (tolerance ${tolerance} s)`,
      timestamp,
    };
  }
  return { ok: true, timestamp };
}

function clip(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 24 ? `${printable.slice(0, 24)}…` : printable;
}

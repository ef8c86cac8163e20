// Checks of single config values, shared by the store (what is saved) and the resolver
// (what comes from flags and variables). Each failure names where the value came from.

import { UsageError } from '../errors.js';
import { ENV_KINDS, type EnvKind, isEnvKind } from './types.js';

/** A positive integer as text or number; `where` names the flag, variable or key. */
export function parseProfileId(value: string | number, where: string): number {
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${where} must be a positive integer, got ${JSON.stringify(String(value))}`);
  }
  return n;
}

/** An http(s) URL, returned without trailing slashes. */
export function parseHttpUrl(value: string, where: string): string {
  const text = value.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) {
    throw new UsageError(`${where} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  return text.replace(/\/+$/, '');
}

export function parseKind(value: string, where: string): EnvKind {
  // Read without regard to case, as --env PRODUCTION is production; stored lowercase.
  const text = value.trim().toLowerCase();
  if (!isEnvKind(text)) {
    throw new UsageError(`${where} must be one of ${ENV_KINDS.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return text;
}

/** A secret (token, webhook secret): not empty, no white space or control characters. */
export function parseSecret(value: string, where: string): string {
  const text = value.trim();
  if (text === '') throw new UsageError(`${where} is empty`);
  if (/[\s\x00-\x1f\x7f]/.test(text))
    throw new UsageError(`${where} contains white space or control characters`);
  return text;
}

const ENV_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Names every JavaScript object answers to: never an environment's. */
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

export function checkEnvName(name: string): string {
  if (RESERVED.has(name)) {
    throw new UsageError(`invalid environment name ${JSON.stringify(name)}: it is reserved`, {
      hint: 'pick another name',
    });
  }
  if (!ENV_NAME.test(name)) {
    throw new UsageError(
      `invalid environment name ${JSON.stringify(name)}: use letters, digits, "-" and "_" (at most 64)`,
    );
  }
  return name;
}

/**
 * An environment that is neither built in nor in the file. The hint offers `login --env NAME`
 * only for a name login would accept (never `toString`, `constructor`, `a b`).
 */
export function unknownEnvironment(name: string, known: readonly string[], from?: string): UsageError {
  let creatable = true;
  try {
    checkEnvName(name);
  } catch {
    creatable = false;
  }
  const create = `create it with "billing login --env ${name} --base-url URL"`;
  return new UsageError(
    `unknown environment "${name}" (${from ? `from ${from}; ` : ''}known: ${known.join(', ')})`,
    {
      hint: creatable ? (from ? `${create}, or pick a known one` : create) : 'pick a known one',
    },
  );
}

/** `url` with the origin of `to`, when it has the origin of `from`; else undefined. */
export function moveOrigin(url: string, from: string, to: string): string | undefined {
  try {
    const target = new URL(url);
    if (target.origin !== new URL(from).origin) return undefined;
    const rest = `${target.pathname === '/' ? '' : target.pathname}${target.search}`;
    return `${new URL(to).origin}${rest}`;
  } catch {
    return undefined;
  }
}

// Where the token may go. Over plain http:// anyone on the path reads it, so it is sent
// only to this machine (127.0.0.0/8, ::1, localhost: the emulator), unless the
// environment was saved with an explicit --allow-http at login.

import { isLoopbackHost } from '../domain/hosts.js';
import { UsageError } from '../errors.js';
import { maskUrlCredentials } from '../format/terminal.js';

/** True when a token sent to `url` would cross the network unencrypted. */
export function isPlainHttpAway(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

/**
 * Refuses (exit 2) to send the token over http:// to a host other than this machine, unless
 * `allowHttp`; then returns the warning to print. `urls` are the addresses the token would go to.
 */
export function checkTokenTransport(
  urls: readonly (string | undefined)[],
  allowHttp: boolean,
): string | undefined {
  const away = urls.filter((url): url is string => url !== undefined && isPlainHttpAway(url));
  if (away.length === 0) return undefined;
  const shown = maskUrlCredentials(away[0]!);
  if (!allowHttp) {
    throw new UsageError(`refusing to send the token over plain http:// to ${shown}`, {
      hint: 'use https://; only if this network is trusted, log in again with --allow-http',
    });
  }
  return `warning: the token is sent over plain http:// to ${shown} (allowed by --allow-http at login)`;
}

// An emulator on an ephemeral port, and the environment that points the CLI at it.

import { EMULATOR_KEY_HEADER, readEmulatorKey } from '../../src/domain/emulator-key.js';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { baseEnv } from './cli.js';
import { checkAnswer } from './openapi.js';

export interface TestEmulator {
  emulator: RunningEmulator;
  url: string;
  /** Environment for runCli: the emulator's addresses, the development token, profile 1. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  close(): Promise<void>;
}

/** An emulator whose every answer is checked against docs/openapi.yaml (a mismatch fails the test). */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, onAnswer: checkAnswer, ...options });
  return {
    emulator,
    url: emulator.url,
    env: (extra = {}) =>
      baseEnv({
        BILLING_ENV: 'local',
        BILLING_BASE_URL: `${emulator.url}/api/v2`,
        BILLING_BASE_URL_V1: `${emulator.url}/api/v1`,
        BILLING_API_TOKEN: LOCAL_EMULATOR.token,
        BILLING_PROFILE_ID: String(LOCAL_EMULATOR.profileId),
        ...extra,
      }),
    close: () => emulator.close(),
  };
}

/**
 * A direct call to the emulator's HTTP API (test setup and checks, not the code under test),
 * with the development token and, for the control API, the credential of an emulator this
 * user started (read from its file, as the CLI does).
 */
export async function emulatorApi(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the answers
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${LOCAL_EMULATOR.token}`,
      'content-type': 'application/json',
      ...ownKeyHeader(url),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  checkAnswer({ method, path: new URL(`${url}${path}`).pathname, status: res.status, body: parsed });
  return { status: res.status, body: parsed };
}

/** The credential of this user's emulator at `origin`, read from its file: the test's own emulator, no proof asked (the CLI asks one, src/ops/emulator-control/admin.ts). */
export function ownKeyHeader(origin: string): Record<string, string> {
  const key = readEmulatorKey(origin);
  return key ? { [EMULATOR_KEY_HEADER]: key } : {};
}

/** fetch() of the emulator's control API (/__emulator/…) with this user's credential for that emulator. */
export function adminFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = {
    ...ownKeyHeader(new URL(url).origin),
    ...((init.headers as Record<string, string>) ?? {}),
  };
  return fetch(url, { ...init, headers });
}

// Which emulator on this machine a command could use instead, for the hint of a command that
// has nowhere to go (no base URL). Plain fetch of /__emulator/status, loopback only, no token, no key.

import { storedEnvironment } from '../../config/resolve.js';
import type { ConfigData } from '../../config/types.js';
import { isLoopbackHost } from '../../domain/hosts.js';
import { localBaseUrls } from '../../domain/local.js';

/** Whether an emulator answers at `origin` within `ms` (without the key, which goes only to a proven one: 401 is there too). */
export async function emulatorAnswers(origin: string, ms = 1000): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/__emulator/status`, {
      signal: AbortSignal.timeout(ms),
    });
    await res.body?.cancel();
    return res.ok || res.status === 401;
  } catch {
    return false;
  }
}

const PROBE_MS = 2000;

/**
 * "an emulator answers at http://127.0.0.1:4010: billing config use local": the first
 * environment other than `current` whose v2 base is on this machine and answers.
 */
export async function emulatorAdvice(data: ConfigData, current: string): Promise<string | undefined> {
  const candidates: { name: string; origin: string }[] = [];
  for (const name of Object.keys(data.environments)) {
    const base = storedEnvironment(data, name)?.base_url;
    const origin = base === undefined ? undefined : originOnThisMachine(base);
    if (name !== current && origin && !candidates.some((c) => c.origin === origin)) {
      candidates.push({ name, origin });
    }
  }
  // A refused port answers at once; the bound only matters for an emulator that is there but busy.
  const answering = await Promise.all(candidates.map((c) => emulatorAnswers(c.origin, PROBE_MS)));
  const found = candidates.find((_, i) => answering[i]);
  if (found)
    return `an emulator answers at ${found.origin}: billing config use ${found.name} (or --env ${found.name})`;
  const usual = localBaseUrls().origin;
  if (!candidates.some((c) => c.origin === usual) && (await emulatorAnswers(usual, PROBE_MS))) {
    return `an emulator answers at ${usual}: billing login --env emulator --emulator ${usual}`;
  }
  return undefined;
}

function originOnThisMachine(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return isLoopbackHost(parsed.hostname) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

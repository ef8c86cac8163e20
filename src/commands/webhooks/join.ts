// How `webhooks listen` and `webhooks trigger` find an emulator behind the environment: a
// local environment (by kind, and by an address on this machine) whose origin answers the
// emulator's /__emulator/status, once it has proven it is this user's (emulator-admin.ts).
// A real service never gets admin calls.

import { isLoopbackHost } from '../../domain/hosts.js';
import { adminCall, NotYourEmulatorError } from '../../ops/emulator-control/admin.js';
import { endpointsOf } from '../../ops/emulator-control/endpoints.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export interface JoinedEmulator {
  origin: string;
  /** The secret the emulator signs with (checked to be printable text). */
  secret: string;
}

export async function findEmulator(rt: Runtime): Promise<JoinedEmulator | undefined> {
  const ctx = await rt.context();
  if (ctx.kind !== 'local' || !ctx.baseUrl) return undefined;
  let origin: string;
  try {
    const url = new URL(ctx.baseUrl);
    if (!isLoopbackHost(url.hostname)) return undefined;
    origin = url.origin;
  } catch {
    return undefined;
  }
  try {
    // The admin call's own bound (5 s): a refused port answers at once, a busy emulator may take a moment.
    const status = await adminCall(origin, 'GET', 'status');
    if (status.ok !== true) return undefined;
    const { secret } = await endpointsOf(origin);
    if (typeof secret !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(secret)) return undefined;
    return { origin, secret };
  } catch (error) {
    // An impostor on the emulator's port is said, never taken for "no emulator here".
    if (error instanceof NotYourEmulatorError) throw error;
    return undefined;
  }
}

// The profiles that exist and which token may use which of them.

import { LOCAL_EMULATOR } from '../../domain/local.js';
import { HttpError } from './reply.js';

export interface Profile {
  id: number;
  name: string;
}

export const PROFILES: readonly Profile[] = [
  { id: LOCAL_EMULATOR.profileId, name: 'Demo Merchant' },
  { id: LOCAL_EMULATOR.otherProfileId, name: 'Second Shop' },
  { id: LOCAL_EMULATOR.forbiddenProfileId, name: 'Other Merchant' },
];

/** Token → the profiles it may use, the first being its default (v1 without profile_id). */
const TOKENS = new Map<string, readonly number[]>([
  [LOCAL_EMULATOR.token, [LOCAL_EMULATOR.profileId, LOCAL_EMULATOR.otherProfileId]],
  [LOCAL_EMULATOR.limitedToken, [LOCAL_EMULATOR.otherProfileId]],
]);

export function profileExists(id: number): boolean {
  return PROFILES.some((profile) => profile.id === id);
}

/** The last Authorization header that named a token we know, and its profiles (a client sends the same one every time). */
let lastAccepted: { header: string; profiles: readonly number[] } | undefined;

/** The profiles of the request's bearer token; 401 when it has none we know. */
export function authenticate(authorization: string | undefined): readonly number[] {
  if (authorization !== undefined && authorization === lastAccepted?.header) return lastAccepted.profiles;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new HttpError(401, 'missing API token: send an Authorization: Bearer <token> header');
  const profiles = TOKENS.get(match[1] ?? '');
  if (!profiles) throw new HttpError(401, 'invalid API token');
  if (authorization !== undefined) lastAccepted = { header: authorization, profiles };
  return profiles;
}

/** Checks a profile id from the path or the query: 404 when there is no such profile, 403 when the token may not use it. */
export function authorizeProfile(allowed: readonly number[], raw: string): number {
  const id = parseId(raw);
  if (id === null || !profileExists(id)) throw new HttpError(404, `profile ${raw} not found`);
  if (!allowed.includes(id)) throw new HttpError(403, `this token has no access to profile ${id}`);
  return id;
}

/** A positive integer id as written in a path or query, else null. */
export function parseId(raw: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(raw)) return null;
  return Number(raw);
}

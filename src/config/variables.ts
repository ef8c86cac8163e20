// The BILLING_* variables the CLI reads, read in one place. Unset is "not given"; set but blank
// names nothing and is exit 2 naming the variable, never a fall-back to the next layer or the
// default (README "Environment", docs/contract.md "Environments and addresses").

import { UsageError } from '../errors.js';

/** Every BILLING_* variable a command reads (BILLING_CODE_CACHE is the launcher's: `0` or not). */
export const VARIABLES = [
  'BILLING_ENV',
  'BILLING_PROFILE_ID',
  'BILLING_API_TOKEN',
  'BILLING_BASE_URL',
  'BILLING_BASE_URL_V1',
  'BILLING_GATEWAY_URL',
  'BILLING_WEBHOOK_SECRET',
  'BILLING_CONFIG_DIR',
  'BILLING_STATE_DIR',
  'BILLING_TIMEOUT',
  'BILLING_MAX_RESPONSE_MB',
] as const;
export type Variable = (typeof VARIABLES)[number];

function emptyVariable(name: string): UsageError {
  return new UsageError(`${name} is empty`, { hint: `give it a value, or leave it out (unset ${name})` });
}

/** The variable's value; undefined when unset; exit 2 when set but blank. */
export function variable(env: Record<string, string | undefined>, name: Variable): string | undefined {
  const value = env[name];
  if (value !== undefined && value.trim() === '') throw emptyVariable(name);
  return value;
}

/** Refuses, before a command does anything, any BILLING_* variable it reads that is set but blank. */
export function refuseEmptyVariables(env: Record<string, string | undefined>): void {
  for (const name of VARIABLES) variable(env, name);
}

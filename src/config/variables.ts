// The BILLING_* variables the CLI reads, read in one place. Unset is "not given"; set but blank
// names nothing and is exit 2 naming the variable, never a fall-back to the next layer or the
// default (the scripting guide's "Environment variables", docs/contract.md "Environments and addresses").

import { UsageError } from '../errors.js';

/** One environment variable: what it does (its row in the scripting guide, `billing help environment`). */
export interface VariableDoc {
  meaning: string;
  /** Read by commands through `variable()`: set but blank is exit 2. The others are read as they are. */
  checked: boolean;
}

/**
 * Every environment variable billing reads: the one table that `billing --help`, `billing help
 * environment`, the scripting guide's table and the blank check read. BILLING_CODE_CACHE is the launcher's
 * (`0` or not); NO_COLOR, FORCE_COLOR and CI are everyone's conventions.
 */
export const ENVIRONMENT = {
  BILLING_API_TOKEN: {
    meaning: 'the token; overrides the stored one. There is no flag for it',
    checked: true,
  },
  BILLING_ENV: {
    meaning: 'environment (`--env`): sandbox, production, local or one you named',
    checked: true,
  },
  BILLING_PROFILE_ID: { meaning: 'merchant profile id (`--profile`)', checked: true },
  BILLING_BASE_URL: { meaning: 'API version 2 base, ending in /api/v2 (`--base-url`)', checked: true },
  BILLING_BASE_URL_V1: {
    meaning: 'API version 1 base, ending in /api/v1 (`--base-url-v1`); subscriptions use it',
    checked: true,
  },
  BILLING_GATEWAY_URL: { meaning: "the card gateway's script host (`--gateway-url`)", checked: true },
  BILLING_WEBHOOK_SECRET: { meaning: 'webhook signing secret', checked: true },
  BILLING_CONFIG_DIR: {
    meaning: 'where the config file lives (`billing config path` shows it)',
    checked: true,
  },
  BILLING_STATE_DIR: {
    meaning: 'where the index of batches run lives (default `$XDG_STATE_HOME/billing`)',
    checked: true,
  },
  BILLING_TIMEOUT: { meaning: 'seconds before a request times out (default 30)', checked: true },
  BILLING_MAX_RESPONSE_MB: {
    meaning: 'the largest answer read, in MB (default 64); a larger one is exit 8',
    checked: true,
  },
  BILLING_CODE_CACHE: {
    meaning: '`0` turns off the compiled-code cache in `~/.cache/billing/v8`',
    checked: false,
  },
  NO_COLOR: { meaning: 'no colour (like `--no-color`)', checked: false },
  FORCE_COLOR: {
    meaning: 'colour even in a pipe or with NO_COLOR (`--no-color` still wins); `0` or `false`: none',
    checked: false,
  },
  CI: { meaning: 'never prompt (like `--no-input`)', checked: false },
} as const satisfies Record<string, VariableDoc>;

type Environment = typeof ENVIRONMENT;

/** A variable a command reads through `variable()`. */
export type Variable = {
  [K in keyof Environment]: Environment[K]['checked'] extends true ? K : never;
}[keyof Environment];

/** Every variable a command reads through `variable()`, in the table's order. */
export const VARIABLES = (Object.keys(ENVIRONMENT) as (keyof Environment)[]).filter(
  (name): name is Variable => ENVIRONMENT[name].checked,
);

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

// billing config set: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { SettableKey } from '../../config/store.js';
import { SETTABLE_KEYS } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { checkKey, SECRET_KEYS, selected } from './settings.js';

const KEYS = SETTABLE_KEYS;

export const setVerb = verb({
  name: 'set',
  place: 30,
  summary: 'change one setting of the selected environment (the token only through login)',
  args: [
    { name: '<key>', help: KEYS.join(', '), values: KEYS },
    {
      name: '[value]',
      help: 'the value; webhook_secret: "-" reads it from stdin (never a value on the command line)',
    },
  ],
  flags: [
    {
      flag: '--secret-file <file>',
      help: 'webhook_secret: the first line of this file or pipe, yours and readable only by you',
    },
  ],
  examples: [
    'billing config set base_url https://api.example/api/v2 --env sandbox',
    'pass show shop/webhook | billing config set webhook_secret -',
    'billing config set webhook_secret --secret-file <(pass show shop/webhook)',
  ],
  output: 'none',
  moves: 'none',
});

export default defineCommand(setVerb, set);

async function set(rt: Runtime, [key, given]: string[], flags: { secretFile?: string } = {}): Promise<void> {
  if (key === 'token') {
    throw new UsageError('the token is never given as a command-line value', {
      hint: 'use billing login (it prompts, or reads stdin with --with-token), or set BILLING_API_TOKEN',
    });
  }
  const settable = checkKey(key);
  const value = await settingValue(rt, settable, given, flags.secretFile);
  const { store, envName } = await selected(rt);
  const { moved, left } = await store.setValue(envName, settable, value);
  // Addresses that move together (docs/decisions.md): said, never silent; so is what stays.
  rt.info(
    `Set ${settable} for ${envName}.`,
    ...moved.map((m) => `${m.key} moved with it to ${m.value} (set it on its own afterwards if it differs).`),
    ...(left
      ? [
          `${left.keys.join(' and ')} ${left.keys.length > 1 ? 'stay' : 'stays'} on ${left.origin}: only base_url moves the others (billing config set base_url URL --env ${envName} moves all of them).`,
        ]
      : []),
  );
}

/**
 * The value to set. A secret never comes on the command line (ps shows it to every user): "-"
 * reads stdin and --secret-file a file or pipe of the user's own (src/cli/kit/secret-file.ts);
 * the literal "-" is never saved.
 */
async function settingValue(
  rt: Runtime,
  key: SettableKey,
  given: string | undefined,
  secretFile: string | undefined,
): Promise<string> {
  if (!SECRET_KEYS.has(key)) {
    if (secretFile !== undefined) throw new UsageError(`--secret-file is for webhook_secret, not ${key}`);
    if (given === undefined) throw new UsageError(`config set ${key} needs a value`);
    return given;
  }
  // Loaded only here: it brings node:fs/promises, which every other config verb need not pay for.
  const { readSecretFile, secretAsFlagValue } = await import('../../cli/kit/secret-file.js');
  const how = `pipe it: ... | billing config set ${key} -, or give --secret-file FILE (yours, mode 600; a pipe such as <(pass show NAME) works)`;
  if (secretFile !== undefined) {
    if (given !== undefined) throw new UsageError(`give ${key} by --secret-file or "-", not both`);
    return readSecretFile(rt, '--secret-file', secretFile);
  }
  if (given === '-') return readSecretFile(rt, key, '-');
  if (given === undefined) throw new UsageError(`config set ${key} needs the secret`, { hint: how });
  throw secretAsFlagValue(`config set ${key}`, how);
}

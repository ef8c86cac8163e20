// What `billing __complete` answers (the protocol the three scripts share), and
// `completion --install` picking the shell from $SHELL.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../src/domain/payments.js';
import { baseEnv, runCli, tempDir } from '../helpers/cli.js';

async function complete(...words: string[]): Promise<string[]> {
  const result = await runCli(['__complete', ...words]);
  expect(result.code).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

describe('__complete', () => {
  it('completes a value written with =', async () => {
    expect(await complete('orders', 'list', '--output=c')).toEqual(['--output=csv']);
    expect(await complete('orders', 'list', '--status=s')).toEqual(['--status=suspended']);
  });

  it('asks for file names only where a file is asked for', async () => {
    expect(await complete('payments', 'refund', '--file', '')).toEqual([':files']);
    expect(await complete('api', '--input', '')).toEqual([':files']);
    // An id is no file: nothing rather than the directory listing.
    expect(await complete('orders', 'create', '--customer', '')).toEqual([]);
    expect(await complete('payments', 'get', '')).toEqual([]);
  });

  it('skips the value of a flag when finding the command', async () => {
    expect(await complete('--env', 'local', 'payments', '')).toContain('get');
    expect(await complete('-o', 'json', 'orders', 'list', '--status', 'c')).toEqual([
      'cancelled',
      'complete',
    ]);
  });
});

describe('values a description lists (issue 29)', () => {
  it("completes each flag's own values: a payment's statuses and kinds, a product's types", async () => {
    // Before, --status completed an order's statuses on every command, and --kind the kinds of
    // an environment.
    expect(await complete('payments', 'list', '--status', '')).toEqual([...PAYMENT_STATUSES].sort());
    expect(await complete('payments', 'list', '--kind', '')).toEqual([...PAYMENT_KINDS].sort());
    expect(await complete('products', 'create', '--type', '')).toEqual(['single', 'subscription']);
    expect(await complete('orders', 'watch', '1', '--until', 'pa')).toEqual(['paused']);
  });
});

describe('completion --install', () => {
  it('takes the shell from $SHELL and writes where it loads completions from', async () => {
    const home = tempDir('billing-home-');
    const env = baseEnv({ HOME: home, SHELL: '/usr/bin/fish', XDG_CONFIG_HOME: undefined });
    const result = await runCli(['completion', '--install'], { env });
    expect(result.code, result.stderr).toBe(0);
    const path = join(home, '.config/fish/completions/billing.fish');
    expect(readFileSync(path, 'utf8')).toContain('complete -c billing');
    expect(result.stdout).toBe('');
  });

  it('without a shell it knows: exit 2, nothing written', async () => {
    const home = tempDir('billing-home-');
    const result = await runCli(['completion', '--install'], {
      env: baseEnv({ HOME: home, SHELL: '/bin/tcsh' }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give the shell');
    expect(existsSync(join(home, '.config'))).toBe(false);
  });
});

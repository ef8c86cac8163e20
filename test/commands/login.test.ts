// billing login, end to end: the built CLI against the emulator, with each refusal and its exit code.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { loginArgs, useEmulator } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

function configFile(env: Record<string, string | undefined>): string {
  return join(env.BILLING_CONFIG_DIR!, 'config.json');
}

describe('login, logout and status', () => {
  it('refuses a wrong token and saves nothing', async () => {
    const env = baseEnv();
    const r = await runCli(loginArgs(emu.url), { env, input: 'sk_not_a_real_token\n' });
    expect(r.code).toBe(3);
    expect(() => readFileSync(configFile(env), 'utf8')).toThrow();
  });

  it('asks for --with-token when there is no terminal', async () => {
    const r = await runCli(['login', '--env', 'local'], { env: baseEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-token');
  });
});

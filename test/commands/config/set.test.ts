// billing config set, end to end: the built CLI against the emulator, with each refusal and its exit code.

import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../../helpers/cli.js';

describe('config', () => {
  it('never takes the token as a value, and rejects unknown keys and environments', async () => {
    const env = baseEnv();
    for (const args of [
      ['config', 'set', 'token', 'sk_secret_value'],
      ['config', 'set', 'colour', 'blue'],
      ['config', 'set', 'profile_id', 'x'],
      ['config', 'use', 'nowhere'],
    ]) {
      const r = await runCli(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toContain('sk_secret_value');
    }
  });
});

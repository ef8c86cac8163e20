// billing status, end to end: the built CLI against the emulator, with each refusal and its exit code.

import { describe, expect, it } from 'vitest';
import { freePort as deadPort, runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

describe('login, logout and status', () => {
  it('reports an unreachable service in status with exit 8', async () => {
    const port = await deadPort();
    const env = emu.env({ BILLING_BASE_URL: `http://127.0.0.1:${port}/api/v2` });
    const r = await runCli(['status'], { env });
    expect(r.code).toBe(8);
    expect(r.stdout).toContain('service');
  });
});

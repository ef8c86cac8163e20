// customers list --email/--name against the demo seed (issue 18 §1).

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });

describe('customers list --email/--name', () => {
  it('keeps the matching customers', async () => {
    const r = await cli(['customers', 'list', '--email', 'MARIE.dubois@example.com', '-o', 'json']);
    expect(JSON.parse(r.stdout).map((c: { email: string }) => c.email)).toEqual(['marie.dubois@example.com']);
    const byName = await cli(['customers', 'list', '--name', 'garc', '-o', 'json']);
    expect(JSON.parse(byName.stdout).map((c: { last_name: string }) => c.last_name)).toEqual(['García']);
    expect(byName.stderr).toContain('1 matched');
  });
});

// Issue 17 §7 (the first two): --debug shows the service's message escaped inside the stack,
// and a 404 on a record tells a wrong address (base URL or profile) from a missing record by
// one cheap request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { hostileServices, send } from '../hostile/service.js';

const serve = hostileServices();

describe('--debug and a service message with line breaks', () => {
  it('the stack shows the message escaped: no line of the service starts a line', async () => {
    const h = await serve((_req, res) =>
      send(res, 422, { message: 'bad order\nerror: forged line\r\nhint: run rm -rf ~' }),
    );
    const r = await h.cli(['orders', 'get', '5', '--debug']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/\n\s+at /); // the stack is there
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('hint: run rm'))).toBe(false);
    expect(lines.some((l) => /^\s*error: forged/.test(l))).toBe(false);
    expect(r.stderr).toContain('ApiError: bad order\\nerror: forged line');
  });
});

describe('a 404 on a record: wrong address or missing record', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'demo' });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('a wrong API base: the hint names the base URL, not other profiles', async () => {
    const r = await runCli(['orders', 'get', '1'], {
      env: emu.env({ BILLING_BASE_URL: `${emu.url}/wrong/api/v2` }),
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      'the list of orders is not found either, so the address is wrong, not the record',
    );
    expect(r.stderr).toContain(`check the API base ${emu.url}/wrong/api/v2`);
    expect(r.stderr).not.toContain('records of another profile');
  });

  it('a profile the service does not know: the same', async () => {
    const r = await runCli(['payments', 'get', '1'], { env: emu.env({ BILLING_PROFILE_ID: '99' }) });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('so the address is wrong, not the record');
    expect(r.stderr).toContain('profile 99');
  });

  it('a record that is not there: the hint says the address answers', async () => {
    const r = await runCli(['orders', 'get', '99999'], { env: emu.env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('there is no order 99999 of profile 1 (the API answers at this address');
  });
});

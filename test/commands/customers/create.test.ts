import { describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env() });
// The reads around the create, the delete and the second local refusal: each is a process in
// its own file (customers/list, get, delete) or above; here main() runs in the worker.
const here = (args: string[]) => runInProcess(args, { env: emu.env() });

describe('customers', () => {
  it('lists, creates, gets and deletes a customer', async () => {
    const listed = await here(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(listed.code, listed.stderr).toBe(0);
    const before = parseNdjson(listed.stdout).length;
    expect(before).toBeGreaterThan(0);

    const created = await cli([
      'customers',
      'create',
      '--first-name',
      'Ada',
      '--last-name',
      'Lovelace',
      '--email',
      'ada@example.com',
      '--country',
      'gb',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const customer = JSON.parse(created.stdout);
    expect(customer).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', country: 'GB' });

    const got = await here(['customers', 'get', String(customer.id), '-o', 'tsv']);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('Ada');

    const after = await here(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(parseNdjson(after.stdout)).toHaveLength(before + 1);

    const deleted = await here(['customers', 'delete', String(customer.id)]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await here(['customers', 'get', String(customer.id)])).code).toBe(5);
  });

  it('checks input locally (exit 2) and passes the service’s 422 through (exit 7)', async () => {
    expect((await cli(['customers', 'create', '--last-name', 'X'])).code).toBe(2);
    expect(
      (await here(['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--country', 'GBR'])).code,
    ).toBe(2);
    const rejected = await cli([
      'customers',
      'create',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      'not-an-email',
    ]);
    expect(rejected.code).toBe(7);
    expect(rejected.stderr).toContain('email');
  });
});

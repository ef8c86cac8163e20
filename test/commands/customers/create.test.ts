import { describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../../helpers/cli.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env() });

describe('customers', () => {
  it('lists, creates, gets and deletes a customer', async () => {
    const listed = await cli(['customers', 'list', '--all', '-o', 'ndjson']);
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

    const got = await cli(['customers', 'get', String(customer.id), '-o', 'tsv']);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('Ada');

    const after = await cli(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(parseNdjson(after.stdout)).toHaveLength(before + 1);

    const deleted = await cli(['customers', 'delete', String(customer.id)]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await cli(['customers', 'get', String(customer.id)])).code).toBe(5);
  });

  it('checks input locally (exit 2) and passes the service’s 422 through (exit 7)', async () => {
    expect((await cli(['customers', 'create', '--last-name', 'X'])).code).toBe(2);
    expect(
      (await cli(['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--country', 'GBR'])).code,
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

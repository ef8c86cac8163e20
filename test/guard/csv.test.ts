// Issue 34 §4: a CSV cell never holds a raw carriage return, quoted or not: the built CLI
// against a service whose record carries one.

import { describe, expect, it } from 'vitest';
import { hostileServices, send } from '../hostile/service.js';

const serve = hostileServices();

describe('-o csv escapes a carriage return the service sends', () => {
  it('customers get with a name holding \\r: written \\r, the row stays one row', async () => {
    const h = await serve((_req, res) =>
      send(res, 200, {
        customer: { id: 1, first_name: 'Ann\rRow2', last_name: 'Lee, "Jr"', email: 'a@example.com' },
      }),
    );
    const r = await h.cli(['customers', 'get', '1', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\r');
    expect(r.stdout).toContain('Ann\\rRow2');
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
  });
});

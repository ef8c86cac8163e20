// The pseudo-terminal helper itself: the command sees a terminal of the given size, and the
// exit code comes through.

import { expect, test } from 'vitest';
import { runOnPty } from '../helpers/pty.js';

test('billing runs on a terminal of the given width and its exit code comes back', async () => {
  const term = runOnPty(['config', 'path'], { cols: 72 });
  const result = await term.exited;
  expect(result.code).toBe(0);
  expect(result.text).toMatch(/config\.json/);
});

test('a usage error on a terminal exits 2', async () => {
  const result = await runOnPty(['orders', 'list', '--bogus']).exited;
  expect(result.code).toBe(2);
  expect(result.text).toContain('--bogus');
});

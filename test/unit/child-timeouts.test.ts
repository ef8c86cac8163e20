// No test may hang: every child process started by a test or a test helper has a timeout,
// either Node's `timeout` option or a timer that kills it (issue 9 §6). A static check of
// test/, so that a new call without one fails here rather than hanging a run.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const testDir = resolve(import.meta.dirname, '..');
const CALL = /\b(spawn|spawnSync|execFile|execFileSync|execSync|exec|fork)\(/g;

/** The text between a call's opening parenthesis and its matching closing one. */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open, i + 1);
  }
  return source.slice(open);
}

it('every child process in test/ has a timeout', () => {
  const files = readdirSync(testDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const missing: string[] = [];
  let calls = 0;
  for (const file of files) {
    const source = readFileSync(join(testDir, file), 'utf8');
    const killedByTimer = /setTimeout\(\(\) => child\.kill\(/.test(source);
    for (const match of source.matchAll(CALL)) {
      // Not a call of child_process: a method (regex.exec) or a declaration.
      if (source[match.index - 1] === '.' || source.slice(0, match.index).endsWith('function ')) continue;
      calls += 1;
      const args = argumentsAt(source, match.index + match[0].length - 1);
      if (!/\btimeout\b/.test(args) && !killedByTimer) {
        const line = source.slice(0, match.index).split('\n').length;
        missing.push(`${relative(testDir, join(testDir, file))}:${line} ${match[1]}(…) has no timeout`);
      }
    }
  }
  expect(calls).toBeGreaterThan(10);
  expect(missing).toEqual([]);
});

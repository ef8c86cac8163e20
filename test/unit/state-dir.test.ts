// The tool's state folder (src/domain/state-dir.ts): one rule, read by the batch index and
// journals, the links sent, the messages in doubt, the MCP sessions and the emulator's key.

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateDir } from '../../src/domain/state-dir.js';

describe('stateDir', () => {
  it('is BILLING_STATE_DIR when set, made absolute', () => {
    expect(stateDir({ BILLING_STATE_DIR: '/srv/state', XDG_STATE_HOME: '/x' }, '/home/u')).toBe('/srv/state');
    expect(stateDir({ BILLING_STATE_DIR: 'rel/state' }, '/home/u')).toBe(resolve('rel/state'));
  });

  it('else $XDG_STATE_HOME/billing, else ~/.local/state/billing', () => {
    expect(stateDir({ XDG_STATE_HOME: '/xdg' }, '/home/u')).toBe('/xdg/billing');
    expect(stateDir({}, '/home/u')).toBe('/home/u/.local/state/billing');
    // Blank counts as unset here; the CLI refuses a blank BILLING_* variable before it gets here.
    expect(stateDir({ BILLING_STATE_DIR: '  ', XDG_STATE_HOME: '' }, '/home/u')).toBe(
      '/home/u/.local/state/billing',
    );
  });

  it('is the one place in src/ that knows where the state folder is', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const others = files('src').filter(
      (file) =>
        file !== join('src', 'domain', 'state-dir.ts') &&
        /\.XDG_STATE_HOME\b|'\.local',\s*'state'/.test(
          // Comments may name it; code may not compute it.
          readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, ''),
        ),
    );
    expect(others).toEqual([]);
  });
});

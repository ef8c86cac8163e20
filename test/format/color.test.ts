import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { defaultFormat, OUTPUT_FORMATS, shouldColor, statusStyle } from '../../src/format/index.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('shouldColor', () => {
  const cases: [
    string,
    { noColorFlag: boolean; env: Record<string, string | undefined>; stream: { isTTY?: boolean } },
    boolean,
  ][] = [
    ['a TTY', { noColorFlag: false, env: {}, stream: tty }, true],
    ['a pipe', { noColorFlag: false, env: {}, stream: pipe }, false],
    ['isTTY missing', { noColorFlag: false, env: {}, stream: {} }, false],
    ['--no-color beats FORCE_COLOR', { noColorFlag: true, env: { FORCE_COLOR: '1' }, stream: tty }, false],
    ['FORCE_COLOR=0', { noColorFlag: false, env: { FORCE_COLOR: '0' }, stream: tty }, false],
    ['FORCE_COLOR=false', { noColorFlag: false, env: { FORCE_COLOR: 'false' }, stream: tty }, false],
    ['FORCE_COLOR=1 on a pipe', { noColorFlag: false, env: { FORCE_COLOR: '1' }, stream: pipe }, true],
    ['FORCE_COLOR empty', { noColorFlag: false, env: { FORCE_COLOR: '' }, stream: pipe }, true],
    [
      'FORCE_COLOR beats NO_COLOR',
      { noColorFlag: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' }, stream: pipe },
      true,
    ],
    ['NO_COLOR=1', { noColorFlag: false, env: { NO_COLOR: '1' }, stream: tty }, false],
    ['NO_COLOR empty is ignored', { noColorFlag: false, env: { NO_COLOR: '' }, stream: tty }, true],
    ['TERM=dumb', { noColorFlag: false, env: { TERM: 'dumb' }, stream: tty }, false],
    ['TERM=xterm', { noColorFlag: false, env: { TERM: 'xterm-256color' }, stream: tty }, true],
  ];
  for (const [name, input, expected] of cases) {
    it(`${name} → ${expected}`, () => expect(shouldColor(input)).toBe(expected));
  }
});

describe('defaultFormat', () => {
  it('is table on a TTY and tsv otherwise', () => {
    expect(defaultFormat(true)).toBe('table');
    expect(defaultFormat(false)).toBe('tsv');
    expect(OUTPUT_FORMATS).toContain(defaultFormat(true));
    expect(OUTPUT_FORMATS).toContain(defaultFormat(false));
  });
});

describe('statusStyle', () => {
  const c = new Chalk({ level: 1 });
  it('colours statuses by meaning', () => {
    expect(statusStyle('active', c)('x')).toBe(c.green('x'));
    expect(statusStyle('complete', c)('x')).toBe(c.green('x'));
    expect(statusStyle('pending', c)('x')).toBe(c.cyan('x'));
    expect(statusStyle('draft', c)('x')).toBe(c.dim('x'));
    expect(statusStyle('paused', c)('x')).toBe(c.yellow('x'));
    expect(statusStyle('failed', c)('x')).toBe(c.magenta('x'));
    expect(statusStyle('rejected', c)('x')).toBe(c.red('x'));
    expect(statusStyle('Cancelled', c)('x')).toBe(c.red('x'));
  });

  it('leaves unknown statuses and colourless chalks plain', () => {
    expect(statusStyle('mystery', c)('x')).toBe('x');
    expect(statusStyle('active', new Chalk({ level: 0 }))('x')).toBe('x');
  });
});

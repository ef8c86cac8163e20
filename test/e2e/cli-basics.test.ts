import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('the command line itself', () => {
  it('shows help with examples, exit codes and every command group', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const word of [
      'orders',
      'customers',
      'products',
      'login',
      'status',
      'config',
      'emulator',
      'Examples:',
    ]) {
      expect(r.stdout).toContain(word);
    }
    expect(r.stdout).toContain('Exit codes');
  });

  it('shows help for a subcommand with examples', async () => {
    const r = await runCli(['orders', 'list', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--all');
    expect(r.stdout).toContain('$ billing orders list');
  });

  it('prints the version from package.json', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('exits 2 with one error line for an unknown command, flag or format', async () => {
    for (const args of [
      ['ordres'],
      ['orders', 'list', '--bogus'],
      ['orders', 'get'],
      ['orders', 'list', '-o', 'xml'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stdout).toBe('');
    }
  });

  it('reports a missing base URL for an environment with none, with exit 2', async () => {
    const r = await runCli(['orders', 'list', '--env', 'sandbox']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('billing login');
  });
});

describe('shell completion', () => {
  it('prints a script for each shell and refuses others', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runCli(['completion', shell]);
      expect(r.code, shell).toBe(0);
      expect(r.stdout).toContain('billing __complete');
    }
    expect((await runCli(['completion', 'powershell'])).code).toBe(2);
  });

  it('answers candidates from the real command tree', async () => {
    const sub = await runCli(['__complete', 'orders', 'l']);
    expect(sub.stdout.split('\n')).toContain('list');
    const flags = await runCli(['__complete', '--env', 'local', 'orders', 'list', '--al']);
    expect(flags.stdout.trim()).toBe('--all');
  });
});

import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { completions } from '../../src/commands/completion/run.js';

function program(): Command {
  const root = new Command('billing').option('--env <name>').option('--json');
  const orders = root.command('orders');
  orders.command('list').option('--status <s>').option('--all');
  orders.command('get');
  root.command('emulator').command('start').option('--port <p>');
  return root;
}

describe('shell completion candidates', () => {
  it('offers subcommands for the word under the cursor', () => {
    expect(completions(program(), [''])).toEqual(['emulator', 'orders']);
    expect(completions(program(), ['or'])).toEqual(['orders']);
    expect(completions(program(), ['orders', ''])).toEqual(['get', 'list']);
  });

  it('offers the flags of the command and of its parents', () => {
    expect(completions(program(), ['orders', 'list', '--'])).toEqual([
      '--all',
      '--env',
      '--json',
      '--status',
    ]);
    expect(completions(program(), ['--env', 'local', 'orders', 'list', '--st'])).toEqual(['--status']);
  });

  it('offers nothing for an unknown prefix', () => {
    expect(completions(program(), ['zzz'])).toEqual([]);
  });
});

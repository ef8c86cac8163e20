// Issue 29: a command's options are typed from its description (src/cli/kit/verb.ts). tsc
// checks this file (`npm run check`): a renamed or removed flag is a compile error where the
// code reads it, which the @ts-expect-error lines below prove.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { collect, flagsOf, type OptionsOf, verb } from '../../src/cli/kit/verb.js';
import { emailVerb } from '../../src/commands/links/email.js';
import type { createVerb } from '../../src/commands/orders/create.js';
import { listVerb } from '../../src/commands/orders/list.js';
import { pauseVerb } from '../../src/commands/orders/pause.js';
import type { payVerb } from '../../src/commands/orders/pay.js';
import type { watchVerb } from '../../src/commands/orders/watch.js';
import type { replayVerb } from '../../src/commands/webhooks/replay.js';

describe('OptionsOf: the options a description declares', () => {
  it('a value flag is a string, absent when not given; a default makes it always set', () => {
    type List = OptionsOf<typeof listVerb>;
    expectTypeOf<List['minAmount']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<List['byStatusDate']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<List['status']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<List['concurrency']>().toEqualTypeOf<string>();
    expectTypeOf<OptionsOf<typeof createVerb>['product']>().toEqualTypeOf<string[]>();
    expectTypeOf<OptionsOf<typeof watchVerb>['interval']>().toEqualTypeOf<string>();
    const read = (options: List) => options.minAmount;
    expect(read({ concurrency: '8', minAmount: '10.00' })).toBe('10.00');
  });

  it('a required flag is always set; a hidden one is still an option (to be refused)', () => {
    type Replay = OptionsOf<typeof replayVerb>;
    expectTypeOf<Replay['to']>().toEqualTypeOf<string>();
    expectTypeOf<Replay['secret']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error --to is required: an options object without it is not the command's
    const missing: Replay = {};
    expect(missing).toEqual({});
  });

  it('a renamed or removed flag does not compile where it is read', () => {
    const read = (options: OptionsOf<typeof listVerb>) => {
      // @ts-expect-error --minimum-amount is not a flag of orders list
      return options.minimumAmount;
    };
    expect(read({ concurrency: '8' })).toBeUndefined();
    // @ts-expect-error --restart-date is a flag of resume, not of pause
    const restart = (options: OptionsOf<typeof pauseVerb>) => options.restartDate;
    expect(restart({ concurrency: '4' })).toBeUndefined();
  });

  it('short flags, --no- flags and parsers', () => {
    const example = verb({
      name: 'example',
      summary: 'an example',
      output: 'none',
      moves: 'none',
      flags: [
        { flag: '-y, --yes', help: 'yes' },
        { flag: '--no-wait', help: 'do not wait' },
        { flag: '--line <id[:qty]>', help: 'a line', parse: collect, default: [] as string[] },
        { flag: '--count <n>', help: 'a number', parse: (value: string) => Number(value) },
      ],
    });
    type Example = OptionsOf<typeof example>;
    expectTypeOf<Example>().toEqualTypeOf<
      { wait: boolean; line: string[] } & { yes?: boolean; count?: number }
    >();
  });

  it('a batch command has the batch flags too, its own kept where it declares one', () => {
    type Pause = OptionsOf<typeof pauseVerb>;
    expectTypeOf<Pause['newBatch']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Pause['concurrency']>().toEqualTypeOf<string>();
    expectTypeOf<OptionsOf<typeof payVerb>['dryRun']>().toEqualTypeOf<boolean | undefined>();
    const flags = flagsOf(pauseVerb).map((f) => f.flag);
    expect(flags).toContain('--journal <path>');
    expect(flags).toContain('--settle-window <seconds>');
    expect(flagsOf(listVerb).map((f) => f.flag)).not.toContain('--journal <path>');
  });

  it('every batch takes --resend-in-doubt (issue 33 §1), from the table of actions, typed too', () => {
    expectTypeOf<OptionsOf<typeof emailVerb>['resendInDoubt']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<OptionsOf<typeof pauseVerb>['resendInDoubt']>().toEqualTypeOf<boolean | undefined>();
    for (const verb of [emailVerb, pauseVerb]) {
      const flags = flagsOf(verb).map((f) => f.flag);
      expect(flags).toContain('--resend-in-doubt');
      expect(flags.indexOf('--resend-in-doubt')).toBeLessThan(flags.indexOf('--dry-run'));
    }
  });
});

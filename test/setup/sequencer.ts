// The order files start in: the slowest first, so that the two workers end together. Each
// worker takes the next file when it is free; a long file that starts last runs on alone while
// the other worker has nothing left. vitest orders by the durations of its own earlier runs, but
// a clean clone (CI) has none, and then it starts the largest files first: pack and sea, short
// files of 20 s or more, started among the last. The files below (the slowest of round 6's
// clean-clone run, docs/decisions.md "Issue 35 §5, round 6: the whole suite") start first, in
// this order; the rest follow in vitest's own order.

import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first. A file renamed or removed here only loses its place: test/setup/parts.test.ts checks the paths. */
export const SLOWEST_FIRST = [
  'test/commands/payments/refund.test.ts',
  'test/commands/webhooks/listen.test.ts',
  'test/e2e/support-round3.test.ts',
  'test/package/pack.test.ts',
  'test/sea/sea.test.ts',
  'test/payments/journal-faults.test.ts',
  'test/emulator/fixtures.test.ts',
  'test/e2e/environments.test.ts',
  'test/completion/shells.test.ts',
  'test/checkout/browser.test.ts',
  'test/commands/webhooks/trigger.test.ts',
  'test/e2e/support-journeys.test.ts',
  'test/e2e/batch-actions.test.ts',
  'test/webhooks/delivery-identity.e2e.test.ts',
  'test/trust/trust.test.ts',
  'test/e2e/readme.test.ts',
  'test/tty/interrupt.test.ts',
  'test/e2e/output-contract.test.ts',
  'test/hostile/bounds.test.ts',
  'test/mcp/mcp.test.ts',
  'test/safety/machine-failures.test.ts',
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(relative(root, spec.moduleId));
      return at < 0 ? SLOWEST_FIRST.length : at;
    };
    const inOrder = await super.sort(files);
    return inOrder
      .map((spec, at) => ({ spec, at, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.at - b.at)
      .map(({ spec }) => spec);
  }
}

// What the command declarations share: the lazy-action wrapper type and help examples. The
// groups declared by descriptions (src/commands/verb.ts) need none of it but `examples`.

import type { Handler } from '../commands/run.js';

export {
  DATE_FORMS,
  EXPANSION_NAMES,
  ORDER_ARG,
  ORDERS_ARG,
  PRODUCTION_GUARD,
} from '../commands/help-text.js';
export { collect, gather } from '../commands/verb.js';

export type Loader = () => Promise<Handler>;
export type Run = (load: Loader) => (...params: unknown[]) => Promise<void>;

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

// What the command declarations share: the lazy-action wrapper type and help examples.

import type { Handler } from '../commands/run.js';

export type Loader = () => Promise<Handler>;
export type Run = (load: Loader) => (...params: unknown[]) => Promise<void>;

export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A repeatable filter flag: no "(default: [])" in its help; undefined when not given. */
export function gather(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Help text of a command the production guard asks about (src/commands/confirm.ts). */
export const PRODUCTION_GUARD =
  '\nOn a production environment this asks for confirmation at a terminal; without one it\nrefuses (exit 2) unless --yes is given.\n';

/** The forms every date flag takes (src/domain/dates.ts), for an option's help. */
export const DATE_FORMS = '2026-11-01, 2026-11-01T09:00, "01/11/2026 09:00"; UTC unless a zone is given';

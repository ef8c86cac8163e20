// The text of a fixture file (`billing emulator apply FILE`, `emulator start --fixtures FILE`):
// YAML when the name ends in .yaml or .yml (js-yaml: ten times faster than yaml on a
// 1,000-record fixture), else JSON. Shared by the CLI, which sends the
// parsed fixture to a running emulator, and the emulator's programmatic entry.
//
// A fixture is bounded before anything expands it (docs/decisions.md, "Fixture limits"): its
// size, its aliases and nesting (js-yaml's own limits, checked while it parses), and the
// number of values it holds once every alias is written out, counted over the shared nodes
// without writing them out. A YAML alias is a reference: 30 nested pairs of them are 2^30
// values when the fixture is sent as JSON.

import { CORE_SCHEMA, load } from 'js-yaml';
import { FIXTURE_LIMITS } from './fixture-limits.js';
import { jsonNestingDepth, TooBigError, writtenOutBytes, writtenOutValues } from './json-size.js';

export { FIXTURE_LIMITS };

export class FixtureFileError extends Error {
  override name = 'FixtureFileError';
}

export function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

/** The fixture as a JSON value; FixtureFileError naming the file (and line) when it does not parse or is too big. */
export function parseFixtureText(text: string, name: string): unknown {
  const bytes = Buffer.byteLength(text);
  if (bytes > FIXTURE_LIMITS.bytes) {
    throw new FixtureFileError(
      `${name} is ${(bytes / 1024 / 1024).toFixed(1)} MB: a fixture may be at most ${FIXTURE_LIMITS.bytes / 1024 / 1024} MB`,
    );
  }
  // JSON's depth is found while scanning its text, before JSON.parse builds anything; the
  // limit counts the levels below the root, as writtenOutValues does.
  const levels = FIXTURE_LIMITS.depth + 1;
  if (!isYamlName(name) && jsonNestingDepth(text, levels) > levels) throw tooDeep(name);
  let value: unknown;
  try {
    // The core schema: a time stays a string (the default schema would make it a Date); a key
    // given twice is refused.
    value = isYamlName(name)
      ? load(text, {
          schema: CORE_SCHEMA,
          filename: name,
          maxAliases: FIXTURE_LIMITS.aliases,
          maxDepth: FIXTURE_LIMITS.depth,
        })
      : JSON.parse(text);
  } catch (error) {
    const first = ((error as Error).message.split('\n')[0] ?? '').trim();
    if (/exceeded maxAliases/.test(first)) {
      throw new FixtureFileError(
        `${name} has more than ${FIXTURE_LIMITS.aliases} YAML aliases: a fixture may use at most ${FIXTURE_LIMITS.aliases}`,
      );
    }
    if (/exceeded maxDepth/.test(first)) throw tooDeep(name);
    throw new FixtureFileError(`${name} is not valid ${isYamlName(name) ? 'YAML' : 'JSON'}: ${first}`);
  }
  checkExpandedSize(value, name);
  // What is sent to the emulator is the JSON of it (a YAML file is smaller than its JSON).
  const sent = writtenOutBytes(value, FIXTURE_LIMITS.bytes);
  if (sent > FIXTURE_LIMITS.bytes) {
    throw new FixtureFileError(
      `${name} is more than ${FIXTURE_LIMITS.bytes / 1024 / 1024} MB written out as JSON: a fixture may be at most ${FIXTURE_LIMITS.bytes / 1024 / 1024} MB`,
    );
  }
  return value;
}

function tooDeep(name: string): FixtureFileError {
  return new FixtureFileError(
    `${name} nests deeper than ${FIXTURE_LIMITS.depth} levels: a fixture may nest at most ${FIXTURE_LIMITS.depth}`,
  );
}

/** The values the fixture holds with its aliases written out, and its depth, within the limits. */
function checkExpandedSize(root: unknown, name: string): void {
  try {
    writtenOutValues(root, FIXTURE_LIMITS.values, FIXTURE_LIMITS.depth);
  } catch (error) {
    if (!(error instanceof TooBigError)) throw error;
    if (error.limit === 'depth') throw tooDeep(name);
    const most = FIXTURE_LIMITS.values.toLocaleString('en');
    throw new FixtureFileError(
      `${name} holds more than ${most} values once its aliases are written out: a fixture may hold at most ${most}`,
    );
  }
}

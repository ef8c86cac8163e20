// Reading a fixture file for `emulator apply FILE`, `emulator start|reset --fixtures FILE`.
// The CLI only parses it (JSON, or YAML by its name); the emulator checks and applies it.

import { readFile, stat } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

export async function readFixtureFile(flag: string, path: string): Promise<unknown> {
  // js-yaml is loaded only here: `emulator start` without --fixtures does without it.
  const { FIXTURE_LIMITS, FixtureFileError, parseFixtureText } = await import('../../domain/fixture-file.js');
  let text: string;
  try {
    // Too big is said before the file is read whole.
    const { size } = await stat(path);
    if (size > FIXTURE_LIMITS.bytes) {
      throw new UsageError(
        `${flag} ${path} is ${(size / 1024 / 1024).toFixed(1)} MB: a fixture may be at most ${FIXTURE_LIMITS.bytes / 1024 / 1024} MB`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${flag} ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`}`,
    );
  }
  try {
    return parseFixtureText(text, path);
  } catch (error) {
    if (error instanceof FixtureFileError) throw new UsageError(error.message);
    throw error;
  }
}

/** A 400 from the emulator is a fixture it refused: the caller's mistake (exit 2). */
export const FIXTURE_REFUSED = {
  400: 'fix that key and apply the whole file again (fixtures/fixture.schema.json describes every key)',
};

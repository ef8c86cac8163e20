// Fails a test in which an emulator answered otherwise than docs/openapi.yaml says
// (test/helpers/openapi.ts collects the mismatches).

import { afterEach } from 'vitest';
import { takeMismatches } from '../helpers/openapi.js';

afterEach(() => {
  const found = takeMismatches();
  if (found.length > 0)
    throw new Error(`the emulator answered outside docs/openapi.yaml:\n${found.join('\n')}`);
});

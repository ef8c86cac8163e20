// vitest global setup: the end-to-end tests run the built dist/, and vitest does not build. When
// any input of the build is newer than dist/, build first, so that no one tests a stale build
// (scripts/fresh-build.mjs, which npm test's check also uses).

import { buildIfStale, isStale } from '../../scripts/fresh-build.mjs';

export { isStale };

export default function setup(): void {
  if (!buildIfStale()) throw new Error('the build failed: the tests would run a stale dist/');
}

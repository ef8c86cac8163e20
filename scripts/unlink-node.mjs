// The Node binaries that CI tests on (devDependencies node22 and node24, from the npm registry)
// each declare a `node` bin, which npm links as node_modules/.bin/node: every npm script would
// then run on Node 22 instead of the Node that runs npm. Run after install (npm's `prepare`).
import { rmSync } from 'node:fs';

rmSync(new URL('../node_modules/.bin/node', import.meta.url), { force: true });

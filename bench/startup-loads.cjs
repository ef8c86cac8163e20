// A --require hook that lists what a billing process loaded, printed as JSON on stderr at exit
// (one line, prefixed "loads: "): the files of dist/ that bin/billing read (its own loader reads
// them with fs.openSync and fs.readFileSync, not through Node's module loader), the files of code
// it ran (`modules`: read alone or from one of dist/packs/, as its loader lists them) and the node:
// builtins (process.moduleLoadList). Used by bench/startup.mjs and test/startup/loads.test.ts.
//
//   node --require bench/startup-loads.cjs bin/billing orders get 1 2> loads
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dist = `${path.join(__dirname, '..', 'dist')}${path.sep}`;
const before = new Set(process.moduleLoadList);
const files = [];
const note = (file) => {
  if (typeof file === 'string' && file.startsWith(dist))
    files.push(file.slice(dist.length).split(path.sep).join('/'));
};
// bin/billing reads a file of code with fs.openSync (into the loader's wrapper), the JSON files
// with fs.readFileSync (which may open through fs.openSync itself: counted once).
let reading = false;
const read = fs.readFileSync;
fs.readFileSync = function readFileSync(file, ...rest) {
  note(file);
  reading = true;
  try {
    return read.call(this, file, ...rest);
  } finally {
    reading = false;
  }
};
const open = fs.openSync;
fs.openSync = function openSync(file, ...rest) {
  if (!reading) note(file);
  return open.call(this, file, ...rest);
};
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((m) => !before.has(m) && m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  const modules = process.mainModule?.exports?.loaded?.() ?? [];
  process.stderr.write(`loads: ${JSON.stringify({ files, modules, builtins })}\n`);
});

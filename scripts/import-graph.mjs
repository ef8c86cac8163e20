// Draws the emulator's import graph and counts what docs/tree.md promises: arrows (one per
// importing file and imported file, type-only imports included), back-arrows (from a lower
// floor to a higher one: model 0 < subsystems 1 < http 2 < index.ts 3) and import circles
// (strongly connected groups of files). Run: node scripts/import-graph.mjs [--dot]
// The check that fails the build is .dependency-cruiser.cjs (`depcruise src` in npm test); this is
// the picture behind it.

import { cruise } from 'dependency-cruiser';

const ROOT = 'src/emulator/';

/** The floor of a file of the emulator, from its folder. */
export function floor(path) {
  const rest = path.slice(ROOT.length);
  if (rest === 'index.ts') return 3;
  if (rest.startsWith('http/')) return 2;
  if (rest.startsWith('model/')) return 0;
  return 1;
}

export async function emulatorGraph(rename = (path) => path) {
  const result = await cruise([ROOT], {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: `^${ROOT}`,
  });
  const edges = [];
  for (const module of result.output.modules) {
    for (const dep of module.dependencies) {
      if (dep.resolved.startsWith(ROOT)) edges.push([rename(module.source), rename(dep.resolved)]);
    }
  }
  return edges;
}

/** Strongly connected components of more than one file (Tarjan). */
export function circles(edges) {
  const next = new Map();
  for (const [from, to] of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)) {
      if (!order.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), order.get(to)));
    }
    if (low.get(node) === order.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!order.has(node)) visit(node);
  return found;
}

export function summary(edges) {
  const back = edges.filter(([from, to]) => floor(from) < floor(to));
  return { files: new Set(edges.flat()).size, arrows: edges.length, back, circles: circles(edges) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = await emulatorGraph();
  if (process.argv.includes('--dot')) {
    const short = (path) => path.slice(ROOT.length);
    console.log('digraph emulator {\n  rankdir=BT;');
    for (const [from, to] of edges) console.log(`  "${short(from)}" -> "${short(to)}";`);
    console.log('}');
  } else {
    const { files, arrows, back, circles: found } = summary(edges);
    console.log(`${files} files, ${arrows} arrows, ${back.length} back-arrows, ${found.length} circles`);
    for (const [from, to] of back) console.log(`  back: ${from} -> ${to}`);
    for (const group of found) console.log(`  circle of ${group.length}: ${group.join(' ')}`);
  }
}

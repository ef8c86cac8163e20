// The floors of src/ are stated once, in FLOORS of .dependency-cruiser.cjs (issue 35 §1): the
// rules depcruise enforces are made from it, and docs/tree.md's column "May import" says the
// same. Here a fixture tree with one file a floor, each importing every other floor, is cruised
// with the project's rules: each floor's rule must refuse exactly what its row does not allow.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

interface Floor {
  what: string;
  path: string;
  may: string[];
}
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
  FLOORS: Record<string, Floor>;
  BESIDE: Record<string, string>;
};
const { FLOORS, BESIDE } = config;
const ROOT = join(import.meta.dirname, '../..');

/** A file of each floor (and of what lies beside them), for the fixture. */
const FILE_OF: Record<string, string> = {
  cli: 'src/cli/a.ts',
  commands: 'src/commands/a.ts',
  mcp: 'src/mcp/a.ts',
  kit: 'src/cli/kit/a.ts',
  ops: 'src/ops/a.ts',
  webhooks: 'src/webhooks/a.ts',
  config: 'src/config/a.ts',
  format: 'src/format/a.ts',
  api: 'src/api/a.ts',
  errors: 'src/errors.ts',
  domain: 'src/domain/a.ts',
  version: 'src/version.ts',
  emulator: 'src/emulator/a.ts',
};
const pathOf = (name: string) => FLOORS[name]?.path ?? BESIDE[name];
/** The name of the floor (or what lies beside them) a path of src/ is in. */
const nameOf = (path: string): string[] =>
  Object.keys(FILE_OF).filter((name) => new RegExp(pathOf(name) ?? '$^').test(path));

describe('FLOORS', () => {
  it('gives each floor a file of the fixture, in that floor alone, and names only floors in `may`', () => {
    expect(Object.keys(FLOORS).length).toBeGreaterThan(8);
    for (const name of [...Object.keys(FLOORS), ...Object.keys(BESIDE)]) {
      expect(nameOf(FILE_OF[name] ?? ''), name).toEqual([name]);
    }
    for (const [name, floor] of Object.entries(FLOORS)) {
      for (const other of floor.may) expect(pathOf(other), `${name} may import ${other}`).toBeDefined();
    }
  });

  it('is where the per-floor rules come from: one `<floor>-floor` rule each', () => {
    const rules = config.forbidden.filter((r) => r.name?.endsWith('-floor')).map((r) => r.name);
    expect(rules.sort()).toEqual(
      Object.keys(FLOORS)
        .map((name) => `${name}-floor`)
        .sort(),
    );
  });
});

describe('depcruise with the floors, on a tree where every floor imports every other', () => {
  let refused: Map<string, Set<string>>;
  beforeAll(async () => {
    const dir = tempDir('billing-floors-');
    for (const [name, file] of Object.entries(FILE_OF)) {
      const imports = Object.entries(FILE_OF)
        .filter(([other]) => other !== name && name !== 'emulator')
        .map(([, target]) => {
          const spec = relative(dirname(file), target).replace(/\.ts$/, '');
          return `import '${spec.startsWith('.') ? spec : `./${spec}`}';`;
        });
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), `${imports.join('\n')}\nexport const here = '${name}';\n`);
    }
    const result = await cruise(['src'], {
      baseDir: dir,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
    });
    const { summary, modules } = result.output as ICruiseResult;
    // Every import of the fixture resolved, or a floor's rule would have nothing to refuse.
    expect(modules.flatMap((m) => m.dependencies).filter((d) => d.couldNotResolve)).toEqual([]);
    refused = new Map();
    for (const v of summary.violations) {
      if (!v.rule.name.endsWith('-floor')) continue;
      const [from] = nameOf(v.from);
      const [to] = nameOf(v.to);
      expect(`${v.rule.name}`).toBe(`${from}-floor`);
      refused.set(from ?? '', (refused.get(from ?? '') ?? new Set()).add(to ?? ''));
    }
  });

  it('fails on an operation (src/ops) importing a command', () => {
    expect(refused.get('ops')).toContain('commands');
  });

  it('refuses of each floor exactly what its `may` leaves out', () => {
    for (const [name, floor] of Object.entries(FLOORS)) {
      const others = Object.keys(FILE_OF).filter((other) => other !== name);
      expect([...(refused.get(name) ?? [])].sort(), name).toEqual(
        others.filter((other) => !floor.may.includes(other)).sort(),
      );
    }
  });
});

describe('docs/tree.md', () => {
  /** The rows of the CLI's table: the floor of the row's first path, and the names its "May import" gives. */
  const rows = () => {
    const text = readFileSync(join(ROOT, 'docs/tree.md'), 'utf8');
    const table = text.slice(text.indexOf('## The CLI'), text.indexOf('## The emulator'));
    return table
      .split('\n')
      .filter((line) => line.startsWith('| `src/'))
      .map((line) => {
        const cells = line.split(' | ');
        const first = /`(src\/[^`]*)`/.exec(cells[0] ?? '')?.[1] ?? '';
        const list = (cells.at(-1) ?? '')
          .replace(/ \|$/, '')
          .replace(/\([^)]*\)/g, '')
          .split(/ — |;/)[0]
          ?.trim();
        const may = /^nothing/.test(list ?? '')
          ? []
          : (list ?? '').split(',').flatMap((item) => {
              const short = item
                .trim()
                .replace(/`/g, '')
                .replace(/^src\//, '')
                .replace(/(\.ts|\/)$/, '');
              // A folder (cli/kit) or else a file (version): the floor whose files it names.
              const folder = nameOf(`src/${short}/a.ts`);
              const found = folder.length > 0 ? folder : nameOf(`src/${short}.ts`);
              return found.length === 1 ? found : [`?${short}`];
            });
        return { floor: nameOf(first), first, may };
      });
  };

  it('has a row for every floor, and its "May import" names what FLOORS allows it', () => {
    const found = rows();
    expect(found.map((row) => row.floor[0]).sort()).toEqual(Object.keys(FLOORS).sort());
    for (const row of found) {
      const name = row.floor[0] ?? row.first;
      expect(row.may.sort(), `docs/tree.md, the row of ${row.first}`).toEqual(
        [...(FLOORS[name]?.may ?? [])].sort(),
      );
    }
  });
});

// Issue 36 §3: the hosted CI workflow (.github/workflows/ci.yml) cannot run here, so the suite
// checks that it is a valid workflow by the schema the editors and linters use (SchemaStore's
// github-workflow.json, vendored in .github/schemas/), with ajv, offline, and that its matrix
// is the one promised: Linux, macOS and Windows, each on Node 20, 22 and 24.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const schema = JSON.parse(readFileSync(resolve(root, '.github/schemas/github-workflow.json'), 'utf8'));
const text = readFileSync(resolve(root, '.github/workflows/ci.yml'), 'utf8');
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

// biome-ignore lint/suspicious/noExplicitAny: a workflow as YAML gives it
type Any = any;

describe('.github/workflows/ci.yml', () => {
  it('is valid by the workflow schema', () => {
    const workflow = load(text);
    const ok = validate(workflow);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema refuses a broken workflow (a job with no runs-on, a step with an unknown key)', () => {
    const broken: Any = load(text);
    delete broken.jobs.test['runs-on'];
    expect(validate(broken)).toBe(false);
    const unknownKey: Any = load(text);
    unknownKey.jobs.test.steps[0].usess = 'actions/checkout@v4';
    expect(validate(unknownKey)).toBe(false);
  });

  it('runs on Linux, macOS and Windows, each on Node 20, 22 and 24, every cell to the end', () => {
    const workflow: Any = load(text);
    const { matrix, 'fail-fast': failFast } = workflow.jobs.test.strategy;
    expect(matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(matrix.node).toEqual(['20', '22', '24']);
    expect(failFast).toBe(false);
    expect(workflow.jobs.test['runs-on']).toBe(['$', '{{ matrix.os }}'].join(''));
    const run = workflow.jobs.test.steps.map((s: Any) => s.run).filter(Boolean);
    expect(run).toContain('npm test');
  });

  it('the Node range it tests is the one package.json promises', () => {
    const engines = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).engines.node as string;
    const majors = [...engines.matchAll(/\^(\d+)\./g)].map((m) => m[1]);
    expect(majors).toEqual((load(text) as Any).jobs.test.strategy.matrix.node);
  });
});

// Every answer the emulator gives in the test suite is checked against docs/openapi.yaml:
// startTestEmulator passes checkAnswer as the emulator's onAnswer, and emulatorApi checks
// what it reads. A mismatch is kept until the test ends, then fails that test (the afterEach
// of test/setup/openapi-check.ts), because it arises inside the server, where throwing would
// only turn the answer into a 500.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';

const DOC_FILE = resolve(import.meta.dirname, '../../docs/openapi.yaml');

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document
export const openapiDoc: any = load(readFileSync(DOC_FILE, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv, ['uri']);
ajv.addSchema(openapiDoc, 'openapi');
const compiled = new Map<string, ValidateFunction>();

const templates = Object.keys(openapiDoc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Why an answer does not match the document; null when it does, or when the document does not describe the path. */
export function answerProblem(method: string, path: string, status: number, body: unknown): string | null {
  const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path;
  const found = templates.find(({ pattern }) => pattern.test(trimmed));
  if (!found) return null;
  const operations = openapiDoc.paths[found.template] as Record<string, Operation>;
  const operation = operations[method.toLowerCase()];
  // A method the path does not have (a probe of an address) may only be refused, with an error body.
  if (!operation) {
    if (status >= 400 && errorShape(body)) return null;
    return `${method} ${path}: not in docs/openapi.yaml, answered ${status}`;
  }
  const code = String(status) in operation.responses ? String(status) : 'default';
  const response = operation.responses[code];
  if (!response) return `${method} ${path}: status ${status} is not documented`;
  const where = response.$ref
    ? `openapi${response.$ref}`
    : `openapi#/${pointer('paths', found.template, method.toLowerCase(), 'responses', code)}`;
  const target = response.$ref
    ? openapiDoc.components.responses[response.$ref.split('/').pop() as string]
    : response;
  if (!target.content) {
    return body === undefined ? null : `${method} ${path}: ${status} has a body; the document gives it none`;
  }
  const ref = `${where}/content/application~1json/schema`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (validate(body)) return null;
  const errors = (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(body)'} ${e.message}`)
    .join('; ');
  return `${method} ${path} answered ${status} not as docs/openapi.yaml says: ${errors}`;
}

function errorShape(body: unknown): boolean {
  let validate = compiled.get('error');
  if (!validate) {
    validate = ajv.compile({ $ref: 'openapi#/components/schemas/Error' });
    compiled.set('error', validate);
  }
  return validate(body);
}

const mismatches: string[] = [];

/** The emulator's onAnswer in tests: keeps every mismatch for the test that caused it. */
export function checkAnswer(answer: { method: string; path: string; status: number; body: unknown }): void {
  // A fault the test injected (POST /__emulator/faults) is the test's own answer, on any route.
  if (/\(injected fault\)$/.test((answer.body as { error?: { message?: string } })?.error?.message ?? ''))
    return;
  const problem = answerProblem(answer.method, answer.path, answer.status, answer.body);
  if (problem) mismatches.push(problem);
}

/** The mismatches since the last call (test/setup/openapi-check.ts fails the test with them). */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

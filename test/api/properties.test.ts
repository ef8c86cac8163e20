// Issue 27 §5: a property-based test of the emulator against docs/openapi.yaml. fast-check
// generates requests from the document — valid bodies, a body with each required field
// removed, a field of the wrong type, an unknown field, a body on a route that takes none —
// sends them to a demo emulator over real HTTP (a fixed seed, a bounded count) and checks
// every answer: a status the operation documents, a body of its documented shape (the
// emulator's onAnswer check too), never a 5xx, and the refusal each kind of request must get.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { answerProblem, openapiDoc } from '../helpers/openapi.js';

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  id: string;
  /** The record under the root key, when the route takes a body. */
  rootKey?: string;
  record?: Schema;
}

const SEED = 27;
const RUNS = 400;

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ seed: 'demo' });
});
afterAll(() => t.close());

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string'
    ? (openapiDoc.components.schemas[(schema.$ref as string).split('/').pop() as string] as Schema)
    : schema;

/** The interface's operations (the emulator's control API, under its own tag, is not generated). */
const OPERATIONS: Operation[] = Object.entries(
  openapiDoc.paths as Record<string, Record<string, Schema>>,
).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(
      ([, op]) => typeof op === 'object' && op.operationId && !(op.tags as string[] | undefined)?.length,
    )
    .map(([method, op]) => {
      const key = op['x-root-key'] as string | undefined;
      const body = (op.requestBody as { content: Record<string, { schema: Schema }> } | undefined)?.content[
        'application/json'
      ]?.schema;
      const record =
        key && body ? resolve((body.properties as Record<string, Schema>)[key] as Schema) : undefined;
      return { method: method.toUpperCase(), template, id: op.operationId as string, rootKey: key, record };
    }),
);

/** Strings that are sometimes what a field wants (so valid bodies get past the first check). */
const LIKELY = fc.constantFrom(
  'EUR',
  'usd',
  'MONTH',
  '01/03/2031 09:00',
  '12.00',
  '2031-03-01',
  'Ada',
  'https://shop.example/ok',
  'single',
  'subscription',
  'DE',
  '',
);

function arbitrary(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return fc.oneof(...types.map((type) => ofType(schema, type, depth)));
}

function ofType(schema: Schema, type: string | undefined, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.oneof(LIKELY, fc.string({ maxLength: 12 }));
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1, max: 40 });
    case 'number':
      return fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitrary((schema.items as Schema) ?? {}, depth + 1), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: 3,
      });
    case 'object': {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      if (depth > 3) return fc.constant({});
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, arbitrary(p, depth + 1)])),
        { requiredKeys: (schema.required as string[] | undefined) ?? [] },
      );
    }
    default:
      return fc.oneof(LIKELY, fc.integer(), fc.constant(null));
  }
}

/** A value of another JSON type than the field's. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const types = new Set(Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]);
  const all: [string, unknown][] = [
    ['string', 'x'],
    ['integer', 7],
    ['boolean', true],
    ['array', [1]],
    ['object', { a: 1 }],
  ];
  const others = all.filter(([type]) => !types.has(type) && !(type === 'integer' && types.has('number')));
  return fc.constantFrom(...others.map(([, value]) => value));
}

type Kind = 'valid' | 'missing' | 'wrong-type' | 'unknown' | 'bodyless' | 'none';
interface Generated {
  op: Operation;
  kind: Kind;
  path: string;
  body?: string;
  field?: string;
}

const request: fc.Arbitrary<Generated> = fc
  .tuple(fc.constantFrom(...OPERATIONS), fc.integer({ min: 1, max: 60 }), fc.constantFrom(1, 1, 1, 2, 3))
  .chain(([op, id, profile]) => {
    const path = op.template.replace('{profile_id}', String(profile)).replace('{id}', String(id));
    if (!op.record || !op.rootKey) {
      // fetch sends no body with a GET; a body-less POST, DELETE or PATCH gets one.
      if (op.method === 'GET') return fc.constant<Generated>({ op, kind: 'none', path });
      return fc.oneof(
        fc.constant<Generated>({ op, kind: 'none', path }),
        fc
          .constantFrom('{"foo":1}', '[1]', 'notjson', '{}', ' ')
          .map((body): Generated => ({ op, kind: 'bodyless', path, body })),
      );
    }
    const key = op.rootKey;
    const record = op.record;
    const properties = Object.keys((record.properties as Record<string, Schema>) ?? {});
    const required = (record.required as string[] | undefined) ?? [];
    const wrap = (value: unknown) => JSON.stringify({ [key]: value });
    const kinds: fc.Arbitrary<Generated>[] = [
      arbitrary(record).map((value): Generated => ({ op, kind: 'valid', path, body: wrap(value) })),
      fc
        .tuple(
          arbitrary(record),
          fc.string({ minLength: 1, maxLength: 8 }).filter((n) => !properties.includes(n)),
        )
        .map(
          ([value, name]): Generated => ({
            op,
            kind: 'unknown',
            path,
            field: name,
            body: wrap({ ...(value as object), [name]: 1 }),
          }),
        ),
    ];
    if (required.length > 0) {
      kinds.push(
        fc.tuple(arbitrary(record), fc.constantFrom(...required)).map(([value, name]): Generated => {
          const copy = { ...(value as Record<string, unknown>) };
          delete copy[name];
          return { op, kind: 'missing', path, field: name, body: wrap(copy) };
        }),
      );
    }
    if (properties.length > 0) {
      kinds.push(
        fc.tuple(arbitrary(record), fc.constantFrom(...properties)).chain(([value, name]) =>
          wrongType((record.properties as Record<string, Schema>)[name] as Schema).map(
            (wrong): Generated => ({
              op,
              kind: 'wrong-type',
              path,
              field: name,
              body: wrap({ ...(value as object), [name]: wrong }),
            }),
          ),
        ),
      );
    }
    return fc.oneof(...kinds);
  });

/** What the answer must be for the kind of request, beyond matching the document. */
function expected(g: Generated, status: number): string | undefined {
  if (status >= 500) return `a ${status}`;
  if (status === 401 || (status === 403 && !g.path.includes('/profiles/3/')))
    return `a ${status} with the token`;
  if (g.kind === 'bodyless' && status !== 400 && status !== 403)
    return `${status} to a body on a route that takes none`;
  if (g.kind === 'unknown' && ![400, 403].includes(status))
    return `${status} to the unknown field "${g.field}"`;
  if ((g.kind === 'missing' || g.kind === 'wrong-type') && status < 400) {
    return `${status} with the required field "${g.field}" ${g.kind === 'missing' ? 'removed' : 'of the wrong type'}`;
  }
  return undefined;
}

it(`answers ${RUNS} generated requests as docs/openapi.yaml says (seed ${SEED})`, {
  timeout: 240_000,
}, async () => {
  const kinds = new Map<Kind, number>();
  await fc.assert(
    fc.asyncProperty(request, async (g) => {
      kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
      const res = await fetch(`${t.url}${g.path}`, {
        method: g.op.method,
        headers: { authorization: `Bearer ${LOCAL_EMULATOR.token}`, 'content-type': 'application/json' },
        body: g.body,
      });
      const text = await res.text();
      const body = text === '' ? undefined : JSON.parse(text);
      const problem =
        answerProblem(g.op.method, new URL(`${t.url}${g.path}`).pathname, res.status, body) ??
        expected(g, res.status);
      if (problem)
        throw new Error(
          `${g.op.method} ${g.path} ${g.kind} ${g.body ?? ''}: ${problem} ${text.slice(0, 300)}`,
        );
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  // Every kind of request was tried.
  for (const kind of ['valid', 'missing', 'wrong-type', 'unknown', 'bodyless', 'none'] as const) {
    expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }
});

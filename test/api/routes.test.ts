// The one route table (src/domain/routes.ts) against the interface document and against
// docs/decisions.md's table of assumed routes: neither is a list kept by hand in this test.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/api/routes.js';
import { profilePath, type Route } from '../../src/domain/routes.js';
import { V1_ROUTES, V2_ROUTES } from '../../src/emulator/http/routes.js';

const root = resolve(import.meta.dirname, '../..');
const SPEC = resolve(root, '../shared/spec/merchant-billing-interface.md');
// The interface document is the project's CI's (shared/ beside the checkout), not a clone's:
// where it is absent the checks against it are skipped and named; docs/openapi.yaml, which
// every other test checks against, is the project's own.
const specHere = existsSync(SPEC);
const SPEC_LABEL = specHere
  ? ''
  : ` (skipped: the interface document is not beside the project; CI has it at ../shared/spec/)`;

interface Shown {
  version: 'v1' | 'v2';
  /** Undefined where the document shows the path without its method. */
  method?: string;
  path: string;
}

/** The rows of the document's endpoint tables, version by version. */
function shownInTheInterface(): Shown[] {
  const rows: Shown[] = [];
  let version: 'v1' | 'v2' | undefined;
  for (const line of readFileSync(SPEC, 'utf8').split('\n')) {
    if (line.startsWith('#'))
      version = /^### Version 2/.test(line) ? 'v2' : /^### Version 1/.test(line) ? 'v1' : undefined;
    const row = /^\| ([^|]+?) \| (\/[^|\s]*) \|/.exec(line);
    if (!version || !row) continue;
    const method = (row[1] as string).trim();
    rows.push({ version, path: row[2] as string, ...(/^[A-Z]+$/.test(method) ? { method } : {}) });
  }
  return rows;
}

/** docs/decisions.md's table of assumed routes: each row's name and the requests it shows. */
function decisionsTable(): Map<string, string[]> {
  const text = readFileSync(resolve(root, 'docs/decisions.md'), 'utf8');
  const section = text.slice(text.indexOf('## Routes the interface document does not show'));
  const table = new Map<string, string[]>();
  for (const line of section.slice(0, section.indexOf('\n## ', 3)).split('\n')) {
    const row = /^\| ([^|]+?) \| (.+) \|$/.exec(line);
    if (!row || row[1] === 'what' || row[1]?.startsWith('-')) continue;
    const requests = [...(row[2] as string).matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)];
    table.set(row[1] as string, requests.map((m) => `${m[1]} ${m[2]}`).sort());
  }
  return table;
}

const all = Object.entries(routes) as [string, Route][];
const request = (route: Route) => `${route.method} ${profilePath(route)}`;

describe('the route table', () => {
  it('names each route for its key, with a method and a path', () => {
    for (const [key, route] of all) {
      expect(route.name).toBe(key);
      expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).toContain(route.method);
      expect(route.path).toMatch(/^\//);
    }
  });

  it('puts every v2 route under /profiles/{profile_id} and no v1 route', () => {
    for (const [, route] of all) {
      if (route.version === 'v2') expect(route.path.startsWith('/profiles/{profile_id}/')).toBe(true);
      else expect(route.path).not.toContain('{profile_id}');
    }
  });

  it("is docs/decisions.md's table of assumed routes, row by row", () => {
    const expected = new Map<string, string[]>();
    for (const [, route] of all) {
      if (!route.decision) continue;
      expected.set(route.decision, [...(expected.get(route.decision) ?? []), request(route)].sort());
    }
    expect(decisionsTable()).toEqual(expected);
  });

  it('names the body root key of the creates', () => {
    expect(routes.createOrder.rootKey).toBe('order');
    expect(routes.createSingleOrderV1.rootKey).toBe('order');
    expect(routes.createSubscriptionOrderV1.rootKey).toBe('order');
    expect(routes.createCustomer.rootKey).toBe('customer');
    expect(routes.createProduct.rootKey).toBe('product');
  });

  it('is what the emulator serves, each route once', () => {
    const served = [
      ...V2_ROUTES.map((r) => ({ ...r, v: 'v2' })),
      ...V1_ROUTES.map((r) => ({ ...r, v: 'v1' })),
    ];
    expect(served).toHaveLength(all.length);
    for (const [name, route] of all) {
      const concrete = profilePath(route).replaceAll('{id}', '42');
      const matches = served.filter(
        (r) => r.v === route.version && r.method === route.method && r.pattern.test(concrete),
      );
      expect(matches, name).toHaveLength(1);
    }
  });
});

describe.skipIf(!specHere)(`the route table against the interface document${SPEC_LABEL}`, () => {
  it('has every request the interface document shows, unassumed where its method is shown', () => {
    const shown = shownInTheInterface();
    expect(shown.length).toBeGreaterThan(10);
    for (const row of shown) {
      const match = all.find(
        ([, r]) =>
          r.version === row.version &&
          profilePath(r) === row.path &&
          (row.method === undefined || r.method === row.method),
      );
      expect(match, `${row.method ?? '?'} ${row.path}`).toBeDefined();
      expect(match?.[1].assumed, `${row.method ?? '?'} ${row.path}`).toBe(row.method === undefined);
    }
  });

  it('marks every route the document does not show as assumed, with the decision that explains it', () => {
    const shown = new Set(shownInTheInterface().map((row) => `${row.version} ${row.method} ${row.path}`));
    for (const [name, route] of all) {
      const isShown = shown.has(`${route.version} ${route.method} ${profilePath(route)}`);
      expect(route.assumed, name).toBe(!isShown);
      expect(route.decision !== undefined, name).toBe(route.assumed);
    }
  });
});

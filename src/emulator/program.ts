// `import { startEmulator } from 'billing/emulator'`: the emulator for a merchant's test suite,
// in-process, on a free port, from a fixture. The package's `exports` point here (built to
// dist/emulator.js, its types to dist/emulator.d.ts by scripts/build.mjs). Every exported
// type is written out, so that the declaration file stands alone.

import { readFile } from 'node:fs/promises';
import { EMULATOR_KEY_HEADER } from '../domain/emulator-key.js';
import { parseFixtureText } from '../domain/fixture-file.js';
import { LOCAL_EMULATOR } from '../domain/local.js';
import { startEmulator as startServer } from './index.js';

/** A fixture: the path of a JSON or YAML file, or the fixture itself (see fixtures/fixture.schema.json in the package). */
export type Fixture = string | Record<string, unknown>;

/** The ids of the records a fixture made, by kind and name: `ids.customers.ada`. */
export type FixtureIds = Record<
  'customers' | 'products' | 'orders' | 'subscriptions' | 'payments',
  Record<string, number>
>;

export interface StartOptions {
  /** Applied once the emulator starts (after the seed). */
  fixture?: Fixture;
  /** `empty` (default): only the profiles and the token; `demo`: the demo shop. */
  seed?: 'empty' | 'demo';
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Endpoints that get a signed delivery for every order status change. */
  webhookUrls?: string[];
  /** Signing secret of the deliveries; default the development one (`webhookSecret` below). */
  webhookSecret?: string;
}

export interface Emulator {
  /** Origin, e.g. http://127.0.0.1:40125. */
  url: string;
  /** Version 2 base address ({base_url}): `${url}/api/v2`; paths go on under /profiles/{profileId}. */
  baseUrl: string;
  /** Version 1 base address ({base_url_v1}). */
  baseUrlV1: string;
  /** The profile the token uses by default. */
  profileId: number;
  /** The development API token: `Authorization: Bearer ${token}`. */
  token: string;
  /** The secret webhook deliveries are signed with. */
  webhookSecret: string;
  /** The interface as OpenAPI 3.1, served by the emulator. */
  openapiUrl: string;
  /** Ids of the records of the start fixture (empty without one). */
  ids: FixtureIds;
  /** Adds a fixture's records, all or nothing; a bad one rejects with the path of the bad key. */
  apply(fixture: Fixture): Promise<FixtureIds>;
  /** Back to the seed and the start fixture; other state (the clock, the outbox) is forgotten. */
  reset(): Promise<FixtureIds>;
  /** Stops it; resolves once it no longer listens. */
  stop(): Promise<void>;
}

async function load(fixture: Fixture): Promise<unknown> {
  if (typeof fixture !== 'string') return fixture;
  return parseFixtureText(await readFile(fixture, 'utf8'), fixture);
}

export async function startEmulator(options: StartOptions = {}): Promise<Emulator> {
  const fixture = options.fixture === undefined ? undefined : await load(options.fixture);
  const secret = options.webhookSecret ?? LOCAL_EMULATOR.webhookSecret;
  const running = await startServer({
    port: options.port ?? 0,
    host: options.host,
    seed: options.seed ?? 'empty',
    fixture,
    ...(typeof options.fixture === 'string' ? { fixtureName: options.fixture } : {}),
    webhookUrls: options.webhookUrls,
    webhookSecret: secret,
  });
  const admin = async (path: string, body: unknown): Promise<FixtureIds> => {
    const res = await fetch(`${running.url}/__emulator/${path}`, {
      method: 'POST',
      // The credential this start made (the same the CLI reads from its file).
      headers: { 'content-type': 'application/json', [EMULATOR_KEY_HEADER]: running.adminKey },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as {
      applied?: FixtureIds;
      fixture_ids?: FixtureIds;
      error?: { message: string };
    };
    if (!res.ok) throw new Error(answer.error?.message ?? `the emulator answered ${res.status}`);
    return (answer.applied ?? answer.fixture_ids) as FixtureIds;
  };
  return {
    url: running.url,
    baseUrl: `${running.url}/api/v2`,
    baseUrlV1: `${running.url}/api/v1`,
    profileId: LOCAL_EMULATOR.profileId,
    token: LOCAL_EMULATOR.token,
    webhookSecret: secret,
    openapiUrl: `${running.url}/openapi.yaml`,
    ids: running.fixtureIds,
    apply: async (more) => admin('apply', await load(more)),
    reset: () => admin('reset', {}),
    stop: () => running.close(),
  };
}

// The local Merchant Billing Service: startEmulator() is the only entry point.

import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { makeEmulatorKey } from '../domain/emulator-key.js';
import { urlHost } from '../domain/hosts.js';
import { LOCAL_EMULATOR } from '../domain/local.js';
import { watchStatusChanges } from './billing/lifecycle.js';
import { parseFaultRules } from './faults/faults.js';
import { type AppliedIds, noIds } from './fixtures/kinds.js';
import { applySeed } from './fixtures/seed.js';
import { isFailRate, isLatency } from './http/admin.js';
import { requestListener } from './http/server.js';
import { DataFileWriter, readDataFile, removeStaleTemps } from './model/persist.js';
import type { ApiAnswer, FaultRule, Runtime } from './model/runtime.js';
import { EmulatorState } from './model/state.js';
import type { SeedName } from './model/types.js';
import type { WebhookRuntime } from './webhooks/admin.js';
import { WebhookDeliveries } from './webhooks/deliveries.js';

export { parseFaultSpec } from './faults/faults.js';
export type { AppliedIds } from './fixtures/kinds.js';
export { OPENAPI_PATH } from './http/server.js';
export type { ApiAnswer, FaultRule } from './model/runtime.js';
export { EmulatorState } from './model/state.js';
export type { SeedName } from './model/types.js';

export interface EmulatorOptions {
  /** Default LOCAL_EMULATOR.port (4010); 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 'empty' (which still has the profiles and tokens). Ignored when dataFile exists. */
  seed?: SeedName;
  /** A fixture (the parsed JSON or YAML of fixtures/fixture.schema.json) applied after the seed; ignored when dataFile exists. */
  fixture?: unknown;
  /** What the status names the fixture by (the CLI and billing/emulator: its file); default "a fixture given at start". */
  fixtureName?: string;
  /** Loaded on start when it exists; written atomically after changes and on close. */
  dataFile?: string;
  /** Delay added to every /api request. */
  latencyMs?: number;
  /** 0..1: share of /api requests answered 502 before anything is applied. */
  failRate?: number;
  /** Randomness for fault decisions. */
  random?: () => number;
  /** Per-endpoint faults (502 before or after applying, dropped connections, slow answers); see faults/faults.ts. */
  faults?: FaultRule[];
  /** Endpoints that get a signed delivery for every order status change. */
  webhookUrls?: string[];
  /** Default LOCAL_EMULATOR.webhookSecret. */
  webhookSecret?: string;
  /** Waits before each retry of a delivery that was not accepted; default 1 s, 5 s, 25 s, 2 min, 10 min. */
  webhookRetryDelaysMs?: number[];
  /** How long an endpoint may take to answer one attempt; default 10 s. */
  webhookTimeoutMs?: number;
  /** Told of every JSON answer it gives (the test suite checks each against docs/openapi.yaml). */
  onAnswer?: (answer: ApiAnswer) => void;
}

export interface RunningEmulator {
  /** Origin, e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string;
  port: number;
  host: string;
  /** Stops listening (idle keep-alive sockets too) and flushes the data file. */
  close(): Promise<void>;
  /** Resolves once the server has closed and the data file is flushed (also after POST /__emulator/shutdown). */
  closed: Promise<void>;
  state: EmulatorState;
  /** Ids of the records of the start fixture, by kind and name (none without one). */
  fixtureIds: AppliedIds;
  /** Webhook delivery: endpoints, the delivery log, Send test event. */
  webhooks: WebhookDeliveries;
  /**
   * The control API's credential (header `x-billing-emulator-key`), made at this start and
   * kept, for the CLI of the same user, in a file only that user can read.
   */
  adminKey: string;
}

/** How long in-flight requests may take to finish once closing has begun. */
const CLOSE_GRACE_MS = 2_000;

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? LOCAL_EMULATOR.host;
  const port = opts.port ?? LOCAL_EMULATOR.port;
  const startSeed = opts.seed ?? 'empty';
  const latencyMs = opts.latencyMs ?? 0;
  const failRate = opts.failRate ?? 0;
  if (!isLatency(latencyMs)) throw new Error(`latencyMs must be 0 or more, not ${latencyMs}`);
  if (!isFailRate(failRate)) throw new Error(`failRate must be from 0 to 1, not ${failRate}`);
  if (startSeed !== 'demo' && startSeed !== 'empty')
    throw new Error(`seed must be "demo" or "empty", not "${startSeed}"`);

  const state = new EmulatorState();
  const dataFile = opts.dataFile ? resolve(opts.dataFile) : null;
  if (dataFile) await removeStaleTemps(dataFile);
  const saved = dataFile ? await readDataFile(dataFile) : null;
  let fixtureIds = noIds();
  if (saved) state.restore(saved.snapshot, saved.loaded);
  else fixtureIds = await applySeed(state, startSeed, opts.fixture, opts.fixtureName);
  const writer = dataFile ? new DataFileWriter(dataFile, () => state.storedForm()) : null;
  if (writer) state.onChange(() => writer.schedule());

  let closing: Promise<void> | null = null;
  let resolveClosed: () => void = () => {};
  let rejectClosed: (error: Error) => void = () => {};
  const closed = new Promise<void>((res, rej) => {
    resolveClosed = res;
    rejectClosed = rej;
  });

  const webhooks = new WebhookDeliveries(state, () => runtime.origin, {
    urls: opts.webhookUrls,
    secret: opts.webhookSecret ?? LOCAL_EMULATOR.webhookSecret,
    retryDelaysMs: opts.webhookRetryDelaysMs,
    timeoutMs: opts.webhookTimeoutMs,
  });
  // After the webhook delivery: see watchStatusChanges.
  watchStatusChanges(state);
  const runtime: Runtime & WebhookRuntime = {
    state,
    origin: '',
    startedAt: new Date().toISOString(),
    adminKey: '',
    startSeed,
    startFixture: opts.fixture,
    startFixtureName: opts.fixtureName,
    dataFile,
    faults: {
      latencyMs,
      failRate,
      random: opts.random ?? Math.random,
      rules: parseFaultRules(opts.faults ?? []),
    },
    shutdown: () => void close().catch(() => {}),
    onAnswer: opts.onAnswer,
    webhooks,
  };
  const server = createServer(
    { keepAlive: true },
    requestListener(runtime, () => closing !== null, host),
  );
  await listen(server, port, host);

  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  runtime.origin = `http://${urlHost(host)}:${actualPort}`;
  let key: ReturnType<typeof makeEmulatorKey>;
  try {
    key = makeEmulatorKey(actualPort);
  } catch (error) {
    server.close();
    throw error;
  }
  runtime.adminKey = key.key;
  if (writer && !saved) writer.schedule();

  function close(): Promise<void> {
    closing ??= (async () => {
      const stopped = new Promise<void>((res) => server.close(() => res()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      await stopped;
      clearTimeout(force);
      webhooks.close();
      key.remove();
      await writer?.flush();
    })().then(resolveClosed, (error: Error) => {
      rejectClosed(error);
      throw error;
    });
    return closing;
  }
  // Nobody may be waiting on `closed`; a failed flush is reported by close() itself.
  closed.catch(() => {});

  return {
    url: runtime.origin,
    port: actualPort,
    host,
    close,
    closed,
    state,
    fixtureIds,
    webhooks,
    adminKey: key.key,
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((res, rej) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        rej(
          new Error(
            `port ${port} on ${host} is already in use: is an emulator already running? Stop it or choose another port`,
            { cause: error },
          ),
        );
      } else {
        rej(error);
      }
    };
    const onListening = () => {
      server.off('error', onError);
      res();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

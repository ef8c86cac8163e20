// The running emulator as its handlers and subsystems see it, and the fault rules it holds
// (applied by faults/faults.ts).

import type { EmulatorState } from './state.js';
import type { SeedName } from './types.js';

export const FAULT_MODES = ['before', 'after', 'drop-after', 'late', 'slow'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultRule {
  /**
   * Which requests: "POST /payments/:id/refund" (method and path, ids written :id), a path
   * alone ("/payments/:id/refund", any method), one of the names in ROUTE_NAMES (faults/faults.ts)
   * or of the route table (sendEmailLink), or absent or "*" for every API request. A route
   * the emulator does not serve is refused.
   */
  route?: string;
  mode: FaultMode;
  /** Share of the matching requests that get the fault, 0 to 1; default 1. */
  rate?: number;
  /**
   * For slow: a fixed delay, plus a random one of up to jitter_ms. For late: how long the
   * record the request made stays out of every read (default 2000).
   */
  latency_ms?: number;
  jitter_ms?: number;
}

export interface Faults {
  latencyMs: number;
  failRate: number;
  random: () => number;
  /** Per-endpoint faults (faults/faults.ts). */
  rules: FaultRule[];
  /** Records a `late` fault made, by id: the time (ms since the epoch) from which reads show them. */
  hidden?: Map<number, number>;
}

/** The running emulator as its handlers see it. */
export interface Runtime {
  state: EmulatorState;
  /** Origin the emulator answers on, e.g. http://127.0.0.1:4010; set once listening. */
  origin: string;
  startedAt: string;
  /** The control API's credential, made at this start (src/domain/emulator-key.ts); '' until it listens. */
  adminKey: string;
  startSeed: SeedName;
  /** The fixture it started from (applied again by a reset without a seed or fixture). */
  startFixture?: unknown;
  /** What the status names it by (its file). */
  startFixtureName?: string;
  dataFile: string | null;
  faults: Faults;
  /** Stops the server (after the current answer has gone out). */
  shutdown(): void;
  /** Told of every JSON answer (EmulatorOptions.onAnswer). */
  onAnswer?: (answer: ApiAnswer) => void;
}

/** One answer of the emulator: the request's method and path, and the status and JSON body sent. */
export interface ApiAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

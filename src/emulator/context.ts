// What request handlers receive.

import type { FaultRule } from './faults.js';
import type { Reply } from './http.js';
import type { EmulatorState } from './state.js';
import type { SeedName } from './types.js';

export interface Faults {
  latencyMs: number;
  failRate: number;
  random: () => number;
  /** Per-endpoint faults (faults.ts). */
  rules: FaultRule[];
}

/** The running emulator as its handlers see it. */
export interface Runtime {
  state: EmulatorState;
  /** Origin the emulator answers on, e.g. http://127.0.0.1:4010; set once listening. */
  origin: string;
  startedAt: string;
  startSeed: SeedName;
  dataFile: string | null;
  faults: Faults;
  /** Stops the server (after the current answer has gone out). */
  shutdown(): void;
}

export interface ApiRequest {
  runtime: Runtime;
  state: EmulatorState;
  profileId: number;
  /** Captures of the route's pattern, still encoded. */
  params: string[];
  query: URLSearchParams;
  rawBody: string;
}

export type Handler = (request: ApiRequest) => Reply;

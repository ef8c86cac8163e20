// What the request handlers of /api receive.

import type { RouteName } from '../../domain/routes.js';
import type { Reply } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import type { EmulatorState } from '../model/state.js';

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

/** A resource's handlers, by the name of their route in the shared table. */
export type Handlers = Partial<Record<RouteName, Handler>>;

// Every API path the emulator serves: the routes of the shared table (src/domain/routes.ts),
// each with its handler. Version 2 paths are relative to /api/v2/profiles/{profile_id};
// version 1 paths to /api/v1.

import { profilePath, type RouteName, routes, type Route as SharedRoute } from '../../domain/routes.js';
import type { Handler } from './context.js';
import { CUSTOMER_HANDLERS } from './customers-api.js';
import { LINK_HANDLERS } from './links-api.js';
import { ORDER_HANDLERS } from './orders-api.js';
import { PAYMENT_HANDLERS } from './payments-api.js';
import { PRODUCT_HANDLERS } from './products-api.js';
import { SCHEDULE_HANDLERS } from './schedule-api.js';
import { SUBSCRIPTION_HANDLERS } from './subscriptions-api.js';

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** The route's entry in the shared table (its root key). */
  route: SharedRoute;
}

/**
 * The handler of every route in the shared table (src/domain/routes.ts), each declared beside
 * its code in its resource's module: a route without one is a compile error here.
 */
const HANDLERS: Record<RouteName, Handler> = {
  ...ORDER_HANDLERS,
  ...SUBSCRIPTION_HANDLERS,
  ...LINK_HANDLERS,
  ...PAYMENT_HANDLERS,
  ...SCHEDULE_HANDLERS,
  ...CUSTOMER_HANDLERS,
  ...PRODUCT_HANDLERS,
};

/** A route's path as a pattern with one capture per {id}. */
function pattern(route: SharedRoute): RegExp {
  const escaped = profilePath(route).replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('{id}', '([^/]+)')}$`);
}

function served(version: SharedRoute['version']): readonly Route[] {
  return (Object.entries(routes) as [RouteName, SharedRoute][])
    .filter(([, route]) => route.version === version)
    .map(([name, route]) => ({
      method: route.method,
      pattern: pattern(route),
      handler: HANDLERS[name],
      route,
    }));
}

/** Paths relative to /api/v2/profiles/{profile_id}. */
export const V2_ROUTES = served('v2');
/** Paths relative to /api/v1. */
export const V1_ROUTES = served('v1');

export type RouteMatch =
  | { handler: Handler; params: string[]; route: SharedRoute }
  | { allowed: string[] }
  | null;

/** The route for a method and path; the allowed methods when only the path matches. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    if (route.method === method)
      return { handler: route.handler, params: match.slice(1), route: route.route };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : null;
}

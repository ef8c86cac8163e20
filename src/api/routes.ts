// The route table is shared with the emulator, so it lives in src/domain/routes.ts; the API
// core's modules import it from here.

export { type HttpMethod, type Route, type RouteName, routes } from '../domain/routes.js';

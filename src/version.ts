// Replaced at build time by esbuild's `define`; the fallback serves tests that import src directly.
declare const __BILLING_VERSION__: string | undefined;
export const version: string = typeof __BILLING_VERSION__ === 'string' ? __BILLING_VERSION__ : '0.0.0-dev';

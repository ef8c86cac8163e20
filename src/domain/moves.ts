// What a command changes at the service: declared by every command's description
// (src/cli/kit/verb.ts), read by the production guard (src/cli/kit/write-guard.ts).

/**
 * What a command changes at the service its environment names: `money` what a customer is or
 * will be charged (or refunded), `message` what a customer is told (a link sent by e-mail or
 * SMS), `data` the service's records otherwise (create, delete, a payment link, a checkout),
 * `none` nothing there (reads; this machine's config, emulator or files). Every command but
 * `none` is guarded on production (src/ops/runtime/confirm.ts, write-guard.ts) and takes --dry-run; a `none`
 * command's write is refused before it is sent (docs/safety.md).
 */
export type Moves = 'money' | 'message' | 'data' | 'none';

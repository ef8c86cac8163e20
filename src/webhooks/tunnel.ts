// A public address in front of the local listener. ngrok's agent library passes the raw
// bytes through, so signatures survive. It is a native module: loaded only here, only when
// --tunnel is given. Nothing a user sets makes it report a tunnel it did not open: tests
// substitute the provider in-process by passing `providers`, and for the built CLI they load
// a double of the agent library before it (test/helpers/ngrok-double.cjs).

import { urlHost } from '../domain/hosts.js';

export interface Tunnel {
  /** The public origin, e.g. https://abcd-1-2-3-4.ngrok-free.app (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

export interface TunnelTarget {
  host: string;
  port: number;
  env: Record<string, string | undefined>;
}

export type TunnelProvider = (target: TunnelTarget) => Promise<Tunnel>;

export class TunnelError extends Error {
  override name = 'TunnelError';
  constructor(
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The subset of @ngrok/ngrok used here. */
export interface NgrokModule {
  forward(config: {
    addr: string;
    authtoken: string;
  }): Promise<{ url(): string | null; close(): Promise<void> }>;
}

export function ngrokProvider(load: () => Promise<NgrokModule> = loadNgrok): TunnelProvider {
  return async ({ host, port, env }) => {
    const authtoken = env.NGROK_AUTHTOKEN;
    if (!authtoken) {
      throw new TunnelError(
        '--tunnel ngrok needs an ngrok authtoken in NGROK_AUTHTOKEN',
        'copy it from https://dashboard.ngrok.com/get-started/your-authtoken; or point any other tunnel at the listen port',
      );
    }
    let ngrok: NgrokModule;
    try {
      ngrok = await load();
    } catch (err) {
      throw new TunnelError(
        `the ngrok agent library could not be loaded: ${(err as Error).message}`,
        'reinstall billing, or run another tunnel (cloudflared, ssh -R, the ngrok agent) pointed at the listen port',
        { cause: err },
      );
    }
    let listener: Awaited<ReturnType<NgrokModule['forward']>>;
    try {
      listener = await ngrok.forward({ addr: `${urlHost(host)}:${port}`, authtoken });
    } catch (err) {
      throw new TunnelError(`ngrok could not open a tunnel: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    const url = listener.url();
    if (!url) {
      await listener.close().catch(() => {});
      throw new TunnelError('ngrok opened a tunnel but gave no public address');
    }
    return { url: url.replace(/\/+$/, ''), close: () => listener.close() };
  };
}

// A native module cannot be bundled: a specifier held in a variable keeps esbuild from
// following it, so Node loads it from node_modules at run time.
const NGROK_PACKAGE = '@ngrok/ngrok';

async function loadNgrok(): Promise<NgrokModule> {
  const mod = (await import(NGROK_PACKAGE)) as NgrokModule & { default?: NgrokModule };
  return typeof mod.forward === 'function' ? mod : (mod.default as NgrokModule);
}

export const TUNNEL_KINDS = ['ngrok'] as const;
export type TunnelKind = (typeof TUNNEL_KINDS)[number];

export async function openTunnel(
  kind: TunnelKind,
  target: TunnelTarget,
  providers: Record<TunnelKind, TunnelProvider> = { ngrok: ngrokProvider() },
): Promise<Tunnel> {
  return providers[kind](target);
}

// Where the built-in emulator listens and what it accepts. The `local` environment of
// the config is pre-filled from here, so the CLI knows these without importing the emulator.

export const LOCAL_EMULATOR = {
  host: '127.0.0.1',
  port: 4010,
  /** Development token: may use profiles 1 and 2. */
  token: 'sk_local_dev_emulator',
  /** A token that may use profile 2 only (for 403 checks). */
  limitedToken: 'sk_local_profile2_only',
  profileId: 1,
  /** A second profile of the development token (records of profile 1 are 404 there). */
  otherProfileId: 2,
  /** A profile that exists but the development token may not use: 403. */
  forbiddenProfileId: 3,
  webhookSecret: 'whsec_local_emulator_secret',
} as const;

/** Where `webhooks listen` takes deliveries unless --path says otherwise; a bare --forward-to port gets it too. */
export const DEFAULT_WEBHOOK_PATH = '/webhooks';

export function localBaseUrls(port: number = LOCAL_EMULATOR.port, host: string = LOCAL_EMULATOR.host) {
  const origin = `http://${host}:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v2`,
    baseUrlV1: `${origin}/api/v1`,
    gatewayUrl: `${origin}/gateway`,
  };
}

/** The command that starts an emulator at `origin`: the port (and host) only when not the usual ones. */
export function emulatorStartCommand(origin: string, verb: 'start' | 'stop' = 'start'): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const port = url?.port ? Number(url.port) : LOCAL_EMULATOR.port;
  const host = url?.hostname.replace(/^\[|\]$/g, '');
  const flags = [
    port !== LOCAL_EMULATOR.port ? ` --port ${port}` : '',
    verb === 'start' && host && host !== LOCAL_EMULATOR.host ? ` --host ${host}` : '',
  ].join('');
  return `billing emulator ${verb}${flags}`;
}

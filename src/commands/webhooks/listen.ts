// billing webhooks listen: receive, verify, show and forward deliveries until Ctrl-C.

import { ApiError } from '../../api/errors.js';
import { ORDER_EVENTS } from '../../domain/orders.js';
import { EXIT, UsageError } from '../../errors.js';
import { OUTPUT_FORMATS, traitsOf } from '../../format/formats.js';
import { isKnownEvent } from '../../webhooks/describe.js';
import { PortInUseError, WebhookReceiver } from '../../webhooks/receiver.js';
import { Recorder } from '../../webhooks/recorder.js';
import { type EventFormat, Renderer } from '../../webhooks/render.js';
import { expandLocalUrl } from '../../webhooks/target.js';
import { openTunnel, TUNNEL_KINDS, type Tunnel, TunnelError } from '../../webhooks/tunnel.js';
import * as parse from '../args.js';
import type { Runtime } from '../runtime.js';
import { webhookSecret } from './shared.js';

export interface ListenFlags {
  port: string;
  host: string;
  path: string;
  secret?: string;
  skipVerify?: boolean;
  tolerance: string;
  events?: string[];
  forwardTo?: string;
  forwardTimeout: string;
  record?: string;
  tunnel?: string;
}

export async function listen(rt: Runtime, _args: string[], flags: ListenFlags): Promise<void> {
  const port = parse.port(flags.port);
  const path = webhookPath(flags.path);
  const toleranceS = parse.positiveInt('--tolerance', flags.tolerance);
  const forwardTimeoutMs = parse.positiveInt('--forward-timeout', flags.forwardTimeout) * 1000;
  const format = eventFormat(rt);
  const events = eventFilter(rt, flags.events ?? []);
  const tunnelKind =
    flags.tunnel === undefined ? undefined : parse.oneOf('--tunnel', flags.tunnel, TUNNEL_KINDS);
  let forwardTo: string | undefined;
  if (flags.forwardTo !== undefined) {
    forwardTo = expandLocalUrl(flags.forwardTo);
    if (!forwardTo) {
      throw new UsageError(`--forward-to must be a URL, a port or a path, got "${flags.forwardTo}"`, {
        hint: 'for example --forward-to http://localhost:3000/webhooks, --forward-to 3000 or --forward-to localhost:3000/hooks',
      });
    }
  }
  if (flags.skipVerify && tunnelKind) {
    throw new UsageError('--skip-verify cannot be used with --tunnel', {
      hint: 'a public address without verification would show and forward whatever anyone sends it',
    });
  }
  const secret = flags.skipVerify ? undefined : await webhookSecret(rt, flags.secret);
  if (!flags.skipVerify && !secret) {
    const ctx = await rt.context();
    throw new UsageError(`no webhook signing secret for environment "${ctx.envName}"`, {
      hint: 'pass --secret, set BILLING_WEBHOOK_SECRET, or use --env local for the emulator (--skip-verify turns verification off)',
    });
  }

  const recorder = flags.record ? new Recorder(flags.record) : undefined;
  if (recorder) {
    await recorder.ready().catch((err: Error) => {
      throw new UsageError(`cannot open --record file ${flags.record}: ${err.message}`);
    });
  }
  const renderer = new Renderer({
    format,
    stdout: rt.io.stdout,
    stderr: rt.io.stderr,
    color: format === 'human' && rt.color,
    stderrColor: rt.stderrColor,
    verbose: rt.debugEnabled,
  });
  const receiver = new WebhookReceiver({
    host: flags.host,
    port,
    path,
    secret: secret?.value,
    toleranceS,
    events,
    forwardTo,
    forwardTimeoutMs,
    recorder,
    onReport: (report) => renderer.report(report),
  });

  // Ctrl-C, or a reader of stdout that went away (`listen --json | head -3`), ends listening.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  rt.signal.addEventListener('abort', onAbort, { once: true });
  const onStdoutError = () => stop.abort();
  rt.io.stdout.on('error', onStdoutError);

  let tunnel: Tunnel | undefined;
  try {
    let address: { port: number };
    try {
      address = await receiver.start();
    } catch (err) {
      if (err instanceof PortInUseError) {
        throw new UsageError(err.message, {
          hint: `is another listen running? Stop it, or pick another port with --port (0 picks a free one)`,
        });
      }
      throw err;
    }
    const local = `http://${urlHost(flags.host)}:${address.port}${path}`;
    if (tunnelKind) {
      try {
        tunnel = await openTunnel(tunnelKind, { host: flags.host, port: address.port, env: rt.env });
      } catch (err) {
        if (err instanceof TunnelError) {
          const usage = /NGROK_AUTHTOKEN/.test(err.message);
          if (usage) throw new UsageError(err.message, { hint: err.hint });
          throw new ApiError('network', EXIT.unavailable, err.message, {
            status: 0,
            method: 'CONNECT',
            path: 'ngrok',
            hint: err.hint ?? 'these machines may have no internet; point another tunnel at the listen port',
          });
        }
        throw err;
      }
    }
    const endpoint = tunnel ? `${tunnel.url}${path}` : local;

    rt.info(`Listening on ${local}${tunnel ? ` (public through ${tunnelKind}: ${tunnel.url})` : ''}`);
    if (secret) {
      rt.info(`Verifying X-Service-Signature with ${secret.origin}, tolerance ${toleranceS} s.`);
    } else {
      rt.info(
        'WARNING: signature verification is OFF (--skip-verify). Every request to this address is shown and forwarded, forged or not.',
      );
    }
    if (forwardTo)
      rt.info(`Forwarding each delivery to ${forwardTo}; the service is answered with what the app answers.`);
    if (events) rt.info(`Showing only ${[...events].join(', ')}; other events are acknowledged and counted.`);
    if (recorder) rt.info(`Recording deliveries to ${recorder.path}.`);
    rt.info(`Ready: paste ${endpoint} into the dashboard's webhook endpoints. Ctrl-C stops.`);

    if (!stop.signal.aborted) {
      await new Promise<void>((resolve) =>
        stop.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    }
  } finally {
    rt.signal.removeEventListener('abort', onAbort);
    await tunnel?.close().catch(() => {});
    await receiver.close();
    await recorder?.close();
    rt.io.stdout.off('error', onStdoutError);
  }
  renderer.summary(receiver.stats);
  if (recorder?.error)
    throw new UsageError(`could not write --record file ${recorder.path}: ${recorder.error.message}`);
}

/** One line per event: a sentence on a screen, a JSON object in a format of data, else a line of fields. */
function eventFormat(rt: Runtime): EventFormat {
  const traits = traitsOf(rt.format);
  if (traits.shows === 'screen') return 'human';
  if (traits.shows === 'data') return 'json';
  if (traits.eachLine) return 'tsv';
  const usable = OUTPUT_FORMATS.filter(
    (f) => traitsOf(f).shows !== 'screen' && (traitsOf(f).shows === 'data' || traitsOf(f).eachLine),
  ).map((f) => (f === 'json' ? '--json' : `-o ${f}`));
  const choices = `${usable.slice(0, -1).join(', ')} or ${usable.at(-1)}`;
  throw new UsageError(`listen prints one line per event: use ${choices}, not ${rt.format}`);
}

function eventFilter(rt: Runtime, values: string[]): Set<string> | undefined {
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  for (const name of names) {
    if (!isKnownEvent(name)) {
      rt.info(
        `warning: --events ${name} is not an event of the interface (known: ${ORDER_EVENTS.join(', ')})`,
      );
    }
  }
  return new Set(names);
}

function webhookPath(value: string): string {
  const path = value.startsWith('/') ? value : `/${value}`;
  if (/[\s?#]/.test(path)) throw new UsageError(`--path must be a URL path like /webhooks, got "${value}"`);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

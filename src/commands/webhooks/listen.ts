// billing webhooks listen: its description and its code.

import { ApiError } from '../../api/errors.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { collect, defineCommand, verb } from '../../cli/kit/verb.js';
import { urlHost, wideBindingWarning } from '../../domain/hosts.js';
import { DEFAULT_WEBHOOK_PATH } from '../../domain/local.js';
import { ORDER_EVENTS } from '../../domain/orders.js';
import { EXIT, UsageError } from '../../errors.js';
import { OUTPUT_FORMATS, traitsOf } from '../../format/formats.js';
import { registerEndpoint, unregisterEndpoint } from '../../ops/emulator-control/endpoints.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { describeEvent, isKnownEvent } from '../../webhooks/describe.js';
import type { Inspector, ReplayRequest } from '../../webhooks/inspector.js';
import {
  answerFor,
  type DeliveryReport,
  PortInUseError,
  type Report,
  WebhookReceiver,
} from '../../webhooks/receiver.js';
import { encodeBody, Recorder } from '../../webhooks/recorder.js';
import { type EventFormat, Renderer } from '../../webhooks/render.js';
import { Sender } from '../../webhooks/sender.js';
import { expandLocalUrl } from '../../webhooks/target.js';
import type { Tunnel } from '../../webhooks/tunnel.js';
import { findEmulator, type JoinedEmulator } from './join.js';
import { SECRET_FLAGS } from './secret-flags.js';
import { givenSecret, type SecretFlags, webhookSecret } from './shared.js';

export const listenVerb = verb({
  name: 'listen',
  place: 10,
  summary: 'receive deliveries: verify each on its raw body, show one line per event, forward to your app',
  flags: [
    { flag: '--port <port>', help: 'port to listen on (0 picks a free one)', default: '4242' },
    { flag: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
    { flag: '--path <path>', help: 'path the deliveries are posted to', default: DEFAULT_WEBHOOK_PATH },
    ...SECRET_FLAGS,
    { flag: '--skip-verify', help: 'do not check signatures (loudly; never with --tunnel)' },
    {
      flag: '--tolerance <seconds>',
      help: 'how old, or how far ahead, a signature timestamp may be',
      default: '300',
    },
    {
      flag: '--events <names>',
      help: 'only these events (comma-separated or repeated); others are acknowledged',
      parse: collect,
      default: [],
    },
    {
      flag: '--forward-to <url>',
      help: "send each delivery, bytes and headers intact, to your app: a URL, or a short form (3000 and localhost:3000 get listen's --path, e.g. http://localhost:3000/webhooks; 3000/hooks and /hooks keep theirs)",
    },
    { flag: '--forward-timeout <seconds>', help: 'how long the app may take to answer', default: '10' },
    { flag: '--record <file>', help: 'append each delivery (headers and raw body) to this NDJSON file' },
    { flag: '--tunnel <kind>', help: 'open a public address: ngrok (token in NGROK_AUTHTOKEN)' },
    {
      flag: '--print-secret',
      help: "print only the signing secret on stdout and exit (the emulator's, when the environment is one)",
    },
    {
      flag: '--inspect',
      help: 'serve a page on 127.0.0.1 that shows each delivery live and replays it (or an edited copy) to the app',
    },
    { flag: '--inspect-port <port>', help: 'port of the --inspect page (0 picks a free one)', default: '0' },
  ],
  examples: [
    'billing --env local webhooks listen',
    'export BILLING_WEBHOOK_SECRET=$(billing --env local webhooks listen --print-secret)',
    'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect',
    'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect --inspect-port 4040',
    'billing --env local webhooks listen --forward-to http://localhost:3000/hooks --events order.active,order.failed',
    'billing webhooks listen --secret-file secret.txt --forward-to http://localhost:3000/webhooks',
    'billing --env local webhooks listen --json | jq -r .event',
    'billing webhooks listen --tunnel ngrok --forward-to http://localhost:3000/webhooks --record deliveries.ndjson',
  ],
  help:
    '\nAgainst an emulator (a local environment whose address answers /__emulator/status) listen\n' +
    'registers its address as a webhook endpoint, prints the signing secret, and removes the endpoint\n' +
    'when it stops; deliveries waiting for a retry there are sent at once. Against a service it says\n' +
    'which address to paste into the dashboard. Events left out by --events are answered 200 and shown\n' +
    'as skipped. Events sent by `webhooks trigger` without a state change behind them are marked synthetic.\n' +
    '--inspect prints a 127.0.0.1 address with a per-run token: a page listing each delivery live, where\n' +
    'Replay (or Edit and replay) sends it to --forward-to again, re-signed only if it was verified on\n' +
    'arrival (else marked X-Billing-Unverified), an edit marked X-Billing-Edited everywhere it shows.\n' +
    '\nA delivery the app does not accept (error status, no answer) is answered with an error too, so the\n' +
    'service retries it; a repeat of a delivery already accepted is answered 200 and not forwarded again.\n' +
    'Rejected (400): missing, malformed, wrong or stale signatures. 413: bodies over 1 MiB.\n',
  output: 'list',
  moves: 'none',
});

export default defineCommand(listenVerb, listen);

export async function listen(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof listenVerb>,
): Promise<void> {
  const port = parse.port(flags.port);
  const path = webhookPath(flags.path);
  const toleranceS = parse.positiveInt('--tolerance', flags.tolerance);
  const forwardTimeoutMs = parse.positiveInt('--forward-timeout', flags.forwardTimeout) * 1000;
  const inspectPort = flags.inspect ? parse.port(flags.inspectPort) : undefined;
  const format = eventFormat(rt);
  const events = eventFilter(rt, flags.events ?? []);
  // The inspector (with its page) and the tunnel are loaded only when asked for.
  const tunnels = flags.tunnel === undefined ? undefined : await import('../../webhooks/tunnel.js');
  const tunnelKind =
    flags.tunnel === undefined || !tunnels
      ? undefined
      : parse.oneOf('--tunnel', flags.tunnel, tunnels.TUNNEL_KINDS);
  let forwardTo: string | undefined;
  if (flags.forwardTo !== undefined) {
    forwardTo = expandLocalUrl(flags.forwardTo, path);
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
  // An emulator behind the environment: listen registers itself there and verifies with its secret.
  const emulator = await findEmulator(rt);
  const secret = flags.skipVerify ? undefined : await listenSecret(rt, flags, emulator);
  if (flags.printSecret) {
    if (!secret) throw noSecret((await rt.context()).envName);
    // For scripts: export SECRET=$(billing webhooks listen --print-secret). Printed as is, on purpose.
    rt.io.stdout.write(`${secret.value}\n`);
    return;
  }
  if (!flags.skipVerify && !secret) throw noSecret((await rt.context()).envName);

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
    onReport: (report) => show(report),
  });
  const replaySender = flags.inspect && forwardTo ? new Sender({ timeoutMs: forwardTimeoutMs }) : undefined;
  const [inspecting, replaying] =
    inspectPort === undefined
      ? []
      : await Promise.all([import('../../webhooks/inspector.js'), import('../../webhooks/replay.js')]);
  const inspector: Inspector | undefined =
    inspectPort === undefined || !inspecting
      ? undefined
      : new inspecting.Inspector({
          host: '127.0.0.1',
          port: inspectPort,
          canReplay: forwardTo !== undefined,
          replay: (entry, original, edited) => replayToApp(entry, original, edited),
        });
  function show(report: Report): void {
    renderer.report(report);
    inspector?.add(report);
  }
  /**
   * The inspector's Replay: the delivery (or an edited copy) to the app. Re-signed only when
   * what it replays was verified on arrival (as `webhooks replay` does with verified_digest);
   * an edit is marked X-Billing-Edited, an unsigned replay X-Billing-Unverified.
   */
  const replayToApp: ReplayRequest = async (entry, original, editedText) => {
    // Only the inspector replays: both modules are loaded when this runs.
    if (!inspecting || !replaying) throw new Error('replay without --inspect');
    if (!forwardTo || !replaySender)
      throw new inspecting.InspectorError(409, 'listen has no --forward-to: no app to replay to');
    const body = editedText === undefined ? original : Buffer.from(editedText, 'utf8');
    const edited = (entry.replay?.edited ?? false) || !body.equals(original);
    const vouched =
      entry.kind === 'replay'
        ? (entry.replay?.signed ?? false)
        : entry.signature.checked && entry.signature.ok;
    const signWith = vouched ? secret?.value : undefined;
    const summary = describeEvent(body);
    const deliveryId = summary.id ?? entry.delivery_id;
    const headers = replaying.replayHeaders(entry.headers, body, { id: deliveryId, signWith, edited });
    const result = await replaySender.post(forwardTo, body, headers, stop.signal);
    const sentHeaders = Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
    const report: DeliveryReport = {
      kind: 'delivery',
      receivedAt: new Date(),
      deliveryId,
      summary,
      verified: signWith !== undefined,
      duplicate: false,
      synthetic: entry.synthetic,
      headers: sentHeaders,
      body,
      forward: { url: forwardTo, result },
      answer: answerFor(result),
      bytes: body.length,
      replay: { of: entry.id, edited, signed: signWith !== undefined },
    };
    recorder?.append({
      received_at: report.receivedAt.toISOString(),
      delivery_id: deliveryId,
      method: 'POST',
      path: forwardTo,
      verified: false,
      duplicate: false,
      ...(entry.synthetic ? { synthetic: true } : {}),
      ...(edited ? { edited: true } : {}),
      headers: sentHeaders,
      ...encodeBody(body),
    });
    show(report);
  };

  // Ctrl-C, or a reader of stdout that went away (`listen --json | head -3`), ends listening.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  rt.signal.addEventListener('abort', onAbort, { once: true });
  const onStdoutError = () => stop.abort();
  rt.io.stdout.on('error', onStdoutError);

  let tunnel: Tunnel | undefined;
  let joined: Joined | undefined;
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
    if (tunnels && tunnelKind) {
      const { openTunnel, TunnelError } = tunnels;
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
    // The tunnel passes its public name on as the Host of each request.
    if (tunnel) receiver.allowHost(new URL(tunnel.url).hostname);
    const endpoint = tunnel ? `${tunnel.url}${path}` : local;

    // The address it really listens on; a wide one is reached here on loopback, and said to be wide.
    const bound = `http://${bracketed(flags.host)}:${address.port}${path}`;
    rt.info(
      `Listening on ${bound}${bound === local ? '' : ` (from this machine: ${local})`}${tunnel ? ` (public through ${tunnelKind}: ${tunnel.url})` : ''}`,
    );
    const wide = wideBindingWarning(
      flags.host,
      secret
        ? 'anyone who reaches it can post to it (deliveries are still checked against the signing secret)'
        : `anyone who reaches it can post to it, and with --skip-verify ${forwardTo ? 'it is forwarded to your app' : 'it is shown'} unchecked`,
    );
    if (wide) rt.info(wide);
    if (secret) {
      rt.info(`Verifying X-Service-Signature with ${secret.origin}, tolerance ${toleranceS} s.`);
    } else {
      rt.info(
        `WARNING: signature verification is OFF (--skip-verify). Every request to this address is ${forwardTo ? 'shown and forwarded' : 'shown and answered 200'}, forged or not.`,
      );
    }
    if (forwardTo)
      rt.info(`Forwarding each delivery to ${forwardTo}; the service is answered with what the app answers.`);
    if (events) {
      // What happens to the events kept: forwarded only when there is somewhere to forward to.
      const kept = [...events].join(', ');
      rt.info(
        forwardTo
          ? `Forwarding only ${kept}; other events are answered 200 and shown as skipped.`
          : `Showing only ${kept}, answered 200 (nothing is forwarded without --forward-to); other events are answered 200 and shown as skipped.`,
      );
    }
    if (recorder) rt.info(`Recording deliveries to ${recorder.path}.`);
    if (inspector) {
      const page = await inspector.start().catch((err: NodeJS.ErrnoException) => {
        throw new UsageError(
          err.code === 'EADDRINUSE'
            ? `--inspect-port ${inspectPort} on 127.0.0.1 is already in use`
            : `cannot serve the inspector: ${err.message}`,
          { hint: '--inspect-port 0 picks a free port' },
        );
      });
      rt.info(`Inspect deliveries at ${page} (this machine only; the address carries this run's token).`);
    }
    if (emulator && !stop.signal.aborted) joined = await join(rt, emulator, local);
    // Where deliveries go on to, on the line whoever waits for listen reads.
    const onward = forwardTo ? `; each goes on to ${forwardTo}` : '';
    if (joined) {
      // The secret itself, for the app's configuration (webhook secrets are not the API token);
      // before the Ready line, which whoever waits for listen reads as "all is said".
      rt.io.stderr.write(`Your webhook signing secret is ${joined.secret}\n`);
      rt.info(
        `Ready: the emulator at ${joined.origin} sends order events to ${local} (${joined.added ? 'until listen stops' : 'an endpoint before listen started; it stays'})${onward}. Ctrl-C stops.`,
      );
    } else {
      rt.info(`Ready: paste ${endpoint} into the dashboard's webhook endpoints${onward}. Ctrl-C stops.`);
    }

    // --json: one first line that says listen is ready, where, and with which secret (issue 37 §4).
    if (traitsOf(rt.format).shows === 'data') {
      rt.io.stdout.write(
        `${JSON.stringify({
          ready: true,
          listening: local,
          endpoint,
          forward_to: forwardTo ?? null,
          emulator: joined?.origin ?? null,
          // The emulator's own development secret is given; a secret of the user's is only said where it is.
          secret: joined && secret?.value === joined.secret ? joined.secret : null,
          secret_from: secret ? secret.origin : null,
          verifying: secret !== undefined,
        })}\n`,
      );
    }

    if (!stop.signal.aborted) {
      await new Promise<void>((resolve) =>
        stop.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    }
  } finally {
    rt.signal.removeEventListener('abort', onAbort);
    if (joined?.added) await leave(rt, joined);
    await tunnel?.close().catch(() => {});
    await inspector?.close();
    await replaySender?.close();
    await receiver.close();
    await recorder?.close();
    rt.io.stdout.off('error', onStdoutError);
  }
  renderer.summary(receiver.stats);
  if (recorder?.error)
    throw new UsageError(`could not write --record file ${recorder.path}: ${recorder.error.message}`);
}

interface Joined extends JoinedEmulator {
  url: string;
  /** Did listen add the endpoint (then it removes it when it stops), or was it there already? */
  added: boolean;
}

async function join(rt: Runtime, emulator: JoinedEmulator, url: string): Promise<Joined> {
  // Every order event: --events filters here, so that the others are seen as skipped.
  const answer = await registerEndpoint(emulator.origin, url, undefined);
  const waiting = answer.endpoint.waiting;
  rt.info(
    `Registered ${url} with the emulator at ${emulator.origin}${answer.added ? '' : ' (it was already an endpoint; it stays one after listen stops)'}.` +
      (waiting > 0
        ? ` ${waiting} ${waiting === 1 ? 'delivery' : 'deliveries'} waiting for a retry there ${waiting === 1 ? 'is' : 'are'} sent now.`
        : ''),
  );
  return { ...emulator, url, added: answer.added };
}

async function leave(rt: Runtime, joined: Joined): Promise<void> {
  try {
    await unregisterEndpoint(joined.origin, joined.url);
    rt.info(`Removed ${joined.url} from the emulator's webhook endpoints.`);
  } catch {
    rt.info(`Could not remove ${joined.url} from the emulator at ${joined.origin} (stopped?).`);
  }
}

/** --secret-file, BILLING_WEBHOOK_SECRET or the environment's; an emulator's own when none was given. */
async function listenSecret(rt: Runtime, flags: SecretFlags, emulator: JoinedEmulator | undefined) {
  const given = await givenSecret(rt, flags);
  if (given && emulator && given.value !== emulator.secret) {
    rt.info(
      `warning: the emulator at ${emulator.origin} signs its deliveries with its own secret, not --secret-file's: each of them will fail the check (leave out --secret-file to verify with the emulator's)`,
    );
  }
  if (given) return given;
  const configured = await webhookSecret(rt, {});
  if (!emulator || configured?.value === emulator.secret) return configured;
  if (configured) {
    rt.info(
      `note: the emulator at ${emulator.origin} signs with another secret than ${configured.origin}; using the emulator's.`,
    );
  }
  return { value: emulator.secret, origin: `the emulator's webhook secret (${emulator.origin})` };
}

function noSecret(envName: string): UsageError {
  return new UsageError(`no webhook signing secret for environment "${envName}"`, {
    hint: 'pass --secret-file FILE, set BILLING_WEBHOOK_SECRET, or use --env local for the emulator (--skip-verify turns verification off)',
  });
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

/** An IPv6 address in brackets, as a URL writes it. */
function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function webhookPath(value: string): string {
  const path = value.startsWith('/') ? value : `/${value}`;
  if (/[\s?#]/.test(path)) throw new UsageError(`--path must be a URL path like /webhooks, got "${value}"`);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

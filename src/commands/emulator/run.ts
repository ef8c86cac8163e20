// The code of billing emulator start, and what stop, status, reset, apply and clock share with it
// (the running emulator, its environment, a detached one's pid).
// The only command module that may load src/emulator (and only in `start`).

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError } from '../../api/errors.js';
import { readSecretFile, secretAsFlagValue } from '../../cli/kit/secret-file.js';
import { emulatorKeyFolder } from '../../domain/emulator-key.js';
import { urlHost } from '../../domain/hosts.js';
import { emulatorStartCommand, LOCAL_EMULATOR } from '../../domain/local.js';
import { EXIT, SystemError, UsageError } from '../../errors.js';
import { safeLine } from '../../format/terminal.js';
import { localEnvOrigin } from '../../ops/emulator-control/admin.js';
import { readFixtureFile } from '../../ops/emulator-control/fixture-file.js';
import { emulatorWideBindingWarning } from '../../ops/emulator-control/owner.js';
import * as parse from '../../ops/runtime/args.js';
import { emulatorAnswers as answers } from '../../ops/runtime/emulator-advice.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** Where the emulator's key will be kept, said when it is not the usual folder (another user took it). */
export function keyFolderNote(rt: Runtime): void {
  let note: string | undefined;
  try {
    note = emulatorKeyFolder().note;
  } catch (error) {
    throw new SystemError((error as Error).message);
  }
  if (note) rt.info(`warning: ${safeLine(note)}`);
}

interface StartFlags {
  port: string;
  host: string;
  seed: string;
  fixtures?: string;
  data?: string;
  latency: string;
  failRate: string;
  detach?: boolean;
  readyFd3?: boolean;
  webhookUrl: string[];
  /** Refused: a secret is never a flag value (src/cli/kit/secret-file.ts). */
  webhookSecret?: string;
  webhookSecretFile?: string;
  fault: string[];
}

export async function start(rt: Runtime, _args: string[], flags: StartFlags): Promise<void> {
  const port = parse.port(flags.port);
  const seed = parse.oneOf('--seed', flags.seed, ['demo', 'empty'] as const);
  const latencyMs = wholeNumber('--latency', flags.latency);
  const failRate = Number(flags.failRate);
  if (!/^\d*\.?\d+$/.test(flags.failRate) || failRate > 1) {
    throw new UsageError(`--fail-rate must be a number from 0 to 1, got "${flags.failRate}"`);
  }
  const webhookUrls = flags.webhookUrl.map((u) => parse.url('--webhook-url', u));
  if (flags.webhookSecret !== undefined) {
    throw secretAsFlagValue(
      '--webhook-secret',
      'give it with --webhook-secret-file FILE (readable only by you; "-" reads stdin)',
    );
  }
  const webhookSecret =
    flags.webhookSecretFile === undefined
      ? undefined
      : await readSecretFile(rt, '--webhook-secret-file', flags.webhookSecretFile);
  const faults = await faultRules(flags.fault);
  const fixture =
    flags.fixtures === undefined ? undefined : await readFixtureFile('--fixtures', flags.fixtures);
  // The address to reach it by: a wildcard binding (--host 0.0.0.0) is reached on loopback.
  const origin = `http://${urlHost(flags.host)}:${port}`;
  const envName = await emulatorEnvName(rt);
  const wide = emulatorWideBindingWarning(flags.host);
  if (wide) rt.info(wide);
  keyFolderNote(rt);
  if (flags.detach) return detach(rt, flags, origin, envName, webhookSecret);

  const { startEmulator } = await import('../../emulator/index.js');
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      port,
      host: flags.host,
      seed,
      fixture,
      ...(flags.fixtures === undefined ? {} : { fixtureName: resolve(flags.fixtures) }),
      dataFile: flags.data,
      latencyMs,
      failRate,
      webhookUrls,
      webhookSecret,
      faults,
    });
  } catch (err) {
    if (err instanceof Error && err.name === 'HttpError') throw new UsageError(err.message);
    if (/in use/i.test((err as Error).message)) {
      throw new UsageError(`port ${port} is already in use`, {
        hint: `pick another with --port, or stop what runs there (an emulator: ${emulatorStartCommand(origin, 'stop')})`,
      });
    }
    throw err;
  }
  let advice: string;
  try {
    // The bound address, not the asked one: --port 0 picks a free port.
    advice = await useAdvice(rt, emulator.url, envName, webhookSecret);
  } catch (err) {
    await emulator.close();
    throw err;
  }
  // The parent of a detached start believes this line, never whoever answers on the port.
  if (flags.readyFd3) reportReady(emulator.url);
  rt.info(
    `Emulator listening on ${emulator.url} (seed: ${seed}${flags.fixtures ? `, fixtures: ${flags.fixtures}` : ''}${flags.data ? `, data: ${flags.data}` : ''}).`,
    `${advice} Ctrl-C stops it.`,
  );
  if (webhookUrls.length > 0) {
    rt.info(
      `Order events go to ${webhookUrls.join(', ')}, signed with ${webhookSecret ? 'the --webhook-secret-file' : "the local environment's webhook_secret"}.`,
    );
  }
  const interrupted = new Promise<void>((resolve) =>
    rt.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  await Promise.race([emulator.closed, interrupted]);
  await emulator.close();
  rt.info('Emulator stopped.');
}

/** Starts `billing emulator start` again as a detached process and waits until it answers. */
export async function detach(
  rt: Runtime,
  flags: StartFlags,
  origin: string,
  envName: string | undefined,
  webhookSecret: string | undefined,
): Promise<void> {
  if (await answers(origin)) {
    throw new UsageError(`an emulator already answers at ${origin}`, {
      hint: `stop it with ${emulatorStartCommand(origin, 'stop')}, or pick another --port`,
    });
  }
  const store = await rt.config();
  const logDir = join(store.path, '..');
  await mkdir(logDir, { recursive: true, mode: 0o700 });
  // One log per port: two emulators never write into one file.
  const logFile = join(logDir, `emulator-${flags.port}.log`);
  const log = openSync(logFile, 'a', 0o600);
  // Where this start's lines begin: the log keeps earlier runs on this port.
  const logStart = fstatSync(log).size;
  // The single executable repeats its own path as argv[1]; the package runs bin/billing there.
  const script = process.argv[1] === process.execPath ? [] : [process.argv[1] ?? ''];
  const args = [
    ...script,
    'emulator',
    'start',
    '--port',
    flags.port,
    '--host',
    flags.host,
    '--seed',
    flags.seed,
  ];
  args.push('--latency', flags.latency, '--fail-rate', flags.failRate);
  if (flags.data) args.push('--data', flags.data);
  if (flags.fixtures) args.push('--fixtures', resolve(flags.fixtures));
  for (const url of flags.webhookUrl) args.push('--webhook-url', url);
  // The secret goes down a pipe, never in argv (ps) nor the environment.
  if (webhookSecret) args.push('--webhook-secret-file', '-');
  for (const fault of flags.fault) args.push('--fault', fault);
  const { BILLING_WEBHOOK_SECRET: _s, BILLING_API_TOKEN: _t, ...env } = process.env;
  args.push('--ready-fd3');
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: [webhookSecret ? 'pipe' : 'ignore', log, log, 'pipe'],
    env,
  });
  child.stdin?.on('error', () => {});
  child.stdin?.end(webhookSecret ? `${webhookSecret}\n` : undefined);
  closeSync(log);
  // Running is what the child itself says once it has bound the port (listen is the claim:
  // of two starts on one port one binds, the other exits "in use"), never that something
  // answers there: that may be another checkout's emulator that won the race.
  const ready = await readyOf(child, 15_000);
  child.unref();
  if (ready) {
    const url = ready.url;
    let advice: string;
    try {
      advice = await useAdvice(rt, url, envName, webhookSecret);
    } catch (err) {
      // A failure after the start never leaves an emulator running unsaid: it is stopped.
      await stopDetached(child.pid, url);
      rt.info(`The emulator started at ${url} was stopped again.`);
      throw err;
    }
    rt.io.stdout.write(`${url}\n`);
    const stop = emulatorStartCommand(url, 'stop');
    rt.info(
      `Emulator running in the background (pid ${child.pid}); log: ${logFile}.`,
      `${advice} Stop it with: ${stop}`,
    );
    return;
  }
  const exitCode = child.exitCode;
  const said = readFileSync(logFile).subarray(logStart).toString('utf8').trim().split('\n');
  const error = said.find((line) => line.startsWith('error: '));
  // The child refused what it was asked (a bad fixture, a port in use): its own message and exit code, once.
  if (exitCode === EXIT.usage && error !== undefined) {
    const hint = said.find((line) => line.startsWith('hint: '));
    throw new UsageError(error.slice('error: '.length), {
      ...(hint ? { hint: hint.slice('hint: '.length) } : {}),
    });
  }
  if (exitCode === null) await stopDetached(child.pid, origin);
  const tail = (error ? [error.slice('error: '.length)] : said.slice(-3)).join(' ');
  throw new ApiError(
    'network',
    EXIT.unavailable,
    `the emulator did not start at ${origin}: ${tail || 'no output'}`,
    {
      status: 0,
      method: 'GET',
      path: '/__emulator/status',
    },
  );
}

/** The foreground start's line for a detaching parent: where it listens, on descriptor 3. */
export function reportReady(url: string): void {
  try {
    writeSync(3, `${JSON.stringify({ url, pid: process.pid })}\n`);
    closeSync(3);
  } catch {
    // No parent reads it (started by hand with the flag): nothing to tell.
  }
}

/** The child's ready line, or undefined when it exits (or the deadline passes) without one. */
export function readyOf(child: ChildProcess, timeoutMs: number): Promise<{ url: string } | undefined> {
  return new Promise((resolvePromise) => {
    const pipe = child.stdio[3] as Readable | null;
    let text = '';
    let done = false;
    const finish = (value: { url: string } | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      pipe?.destroy();
      resolvePromise(value);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    pipe?.setEncoding('utf8');
    pipe?.on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\n')[0];
      if (!text.includes('\n') || line === undefined) return;
      try {
        const said = JSON.parse(line) as { url?: unknown };
        finish(typeof said.url === 'string' && /^https?:\/\//.test(said.url) ? { url: said.url } : undefined);
      } catch {
        finish(undefined);
      }
    });
    pipe?.on('error', () => {});
    child.once('exit', () => setImmediate(() => finish(undefined)));
  });
}

/** Stops the emulator `detach` started (SIGTERM: it closes as at Ctrl-C) and waits until it is gone. */
export async function stopDetached(pid: number | undefined, origin: string): Promise<void> {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && (await answers(origin))) await new Promise((r) => setTimeout(r, 100));
}

/** Whether the local environment points at this emulator (then --env local is all it takes). */
export async function isLocalOrigin(rt: Runtime, origin: string): Promise<boolean> {
  return (await localEnvOrigin(rt)) === origin;
}

/**
 * How to reach this emulator: --env local when local points at it; else, with `start --env
 * NAME`, NAME made for it now; else the one command that makes an environment for it.
 */
export async function useAdvice(
  rt: Runtime,
  origin: string,
  envName: string | undefined,
  webhookSecret: string | undefined,
): Promise<string> {
  const preset = `profile ${LOCAL_EMULATOR.profileId} and the development token ${LOCAL_EMULATOR.token} are pre-set`;
  if (envName !== undefined) {
    const { saveEmulatorEnvironment } = await import('../login/run.js');
    await saveEmulatorEnvironment(rt, envName, origin, { webhookSecret });
    return `Environment ${envName} now uses it (${preset}): billing config use ${envName}, or --env ${envName}.`;
  }
  if (await isLocalOrigin(rt, origin)) return `Use it with --env local (${preset}).`;
  const port = new URL(origin).port;
  return `Make an environment for it: billing login --env emulator-${port} --emulator ${origin} (or start it with --env NAME; ${preset}).`;
}

/**
 * The environment `emulator start --env NAME` makes for the emulator: only from the flag (a
 * BILLING_ENV of the shell never rewrites an environment), and only a new one, local, or one
 * that already points at this machine: never sandbox, production or a remote environment.
 */
export async function emulatorEnvName(rt: Runtime): Promise<string | undefined> {
  if (rt.flags.env === undefined) return undefined;
  const { canonicalEnvName, storedEnvironment } = await import('../../config/resolve.js');
  const { checkEnvName } = await import('../../config/values.js');
  const { environmentKind, storedAddresses } = await import('../../config/kind.js');
  const name = checkEnvName(canonicalEnvName(rt.flags.env.trim()));
  const data = (await rt.config()).read();
  const stored = storedEnvironment(data, name);
  const current = stored ? environmentKind(name, data, storedAddresses(stored)).kind : 'local';
  if (current !== 'local') {
    throw new UsageError(
      `--env ${name}: environment "${name}" is ${current}; an emulator gets an environment of its own`,
      {
        hint: 'pick a new name for it, e.g. --env emulator',
      },
    );
  }
  // Refused now rather than after the emulator started: nothing is started, nothing changed.
  (await rt.config()).checkWritable();
  return name;
}

/**
 * The writers of src/format (tables, colours), loaded by the subcommands that print records:
 * `start` prints none, and answers sooner without them.
 */
export async function output() {
  const [format, result, text] = await Promise.all([
    import('../../format/index.js'),
    import('../../cli/kit/result.js'),
    import('../../format/text.js'),
  ]);
  return {
    textColumn: format.textColumn,
    write: format.write,
    writeList: format.writeList,
    writeResult: result.writeResult,
    formatTimestamp: text.formatTimestamp,
  };
}

export function flatten(body: Record<string, unknown>): { key: string; value: string }[] {
  return Object.entries(body).map(([key, value]) => ({
    key,
    value: typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? ''),
  }));
}

/** --fault ROUTE:MODE[:RATE[:MS]] (parsed by the emulator's faults module, loaded only here). */
export async function faultRules(specs: string[]) {
  const { parseFaultSpec } = await import('../../emulator/index.js');
  return specs.map((spec) => {
    try {
      return parseFaultSpec(spec);
    } catch (err) {
      throw new UsageError(`--fault: ${(err as Error).message}`);
    }
  });
}

export function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

// billing emulator clock [advance [DURATION]] [--to DATE]

// Benchmarks of the emulator for a test suite (issue 19 §3, §4), on the machine's Node, each
// against a baseline taken in alternation (the machine is shared):
//
// 1. A 1,000-record fixture (100 customers, 20 products, 700 orders in every status, 100
//    subscriptions, 80 refunds) applied to a running emulator: the admin call alone
//    (validation and apply, the emulator reset to empty before each), and
//    `billing emulator apply FILE.yaml` as a user runs it. Target: under 1 s.
// 2. `billing emulator start` to its first answer (GET /__emulator/status answered 200),
//    against `node -e 0`, with a bare node:http server's first answer beside it (the floor).
//    Target: within 3×.
// 3. GET /orders/{id} throughput (autocannon, 10 connections, 4 s a round, 5 rounds each in
//    alternation) against a bare node:http server in its own process answering the same
//    bytes with the same headers (checked first). Target: at least half.
//
// NODE_EXTRA_CA_CERTS is unset and BILLING_* cleared for every process. Writes
// bench/results-emulator.md (folded into bench/RESULTS.md by bench/run.mjs); with --only,
// prints the rows asked for and writes nothing.
//
//   npm run build && node bench/emulator.mjs [--only fixture,start,get]

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { dump } from 'js-yaml';
import {
  adminClient,
  BIN as bin,
  cleanEnv,
  freePort,
  root,
  startEmulator as spawnEmulator,
  spawnServing,
  stopEmulator,
  TOKEN,
} from './harness.mjs';
import { median } from './stats.mjs';

const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
// A code cache of its own (as bench/run.mjs's warm rows): the user's one, shared by every
// build on this machine, keeps only the eight newest builds and may lose this one mid-run.
const env = cleanEnv({
  BILLING_CONFIG_DIR: join(tmp, 'config-emulator'),
  XDG_CACHE_HOME: join(tmp, 'cache-emulator'),
});
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1].split(',') : ['fixture', 'start', 'get'];
const ROUNDS = 5;
const STARTS = 21;
const ms = (x) => `${x.toFixed(1)} ms`;
const load = [];
const noteLoad = () => load.push(loadavg()[0]);

/** 1,000 records: every status, references to earlier records, refunds of paid orders. */
function bigFixture() {
  const statuses = [
    'draft',
    'pending',
    'registered',
    'active',
    'failed',
    'rejected',
    'review',
    'complete',
    'cancelled',
  ];
  const f = { customers: {}, products: {}, orders: {}, subscriptions: {}, payments: {} };
  for (let i = 0; i < 100; i++) {
    f.customers[`c${i}`] = {
      first_name: `Name${i}`,
      last_name: 'Bench',
      email: `c${i}@example.com`,
      country: 'DE',
      card: { brand: 'visa', last4: '4242', expiry: '12/30' },
    };
  }
  for (let i = 0; i < 20; i++) {
    f.products[`p${i}`] = {
      name: `Product ${i}`,
      price: `${10 + i}.50`,
      ...(i < 4 ? { product_type: 'subscription' } : {}),
    };
  }
  for (let i = 0; i < 700; i++) {
    f.orders[`o${i}`] = {
      customer: `\${customers.c${i % 100}.id}`,
      lines: [{ product: `\${products.p${4 + (i % 16)}.id}`, qty: 1 + (i % 3) }],
      status: statuses[i % statuses.length],
      created_at: `now-${1 + (i % 80)}d`,
    };
  }
  for (let i = 0; i < 100; i++) {
    f.subscriptions[`s${i}`] = {
      customer: `\${customers.c${i}.id}`,
      product: `\${products.p${i % 4}.id}`,
      status: i % 5 === 0 ? 'paused' : 'active',
      created_at: `now-${30 + i}d`,
    };
  }
  let n = 0;
  for (let i = 0; n < 80; i++) {
    if (!['active', 'complete'].includes(statuses[i % statuses.length])) continue;
    f.payments[`r${n++}`] = { order: `\${orders.o${i}.id}`, action: 'refund', amount: '1.00' };
  }
  return f;
}

/** The emulator on a free port, polled every 2 ms until it answers. */
async function startEmulator(port) {
  const { child, origin, firstAnswerMs } = await spawnEmulator({ port, env, pollMs: 2, stderr: 'ignore' });
  return { child, url: origin, firstAnswerMs, admin: adminClient(origin) };
}

const lines = [];
const fixture = bigFixture();
const records = Object.values(fixture).reduce((sum, kind) => sum + Object.keys(kind).length, 0);
const yamlFile = join(tmp, 'fixture-1000.yaml');
writeFileSync(yamlFile, dump(fixture));

// 1. Fixture apply.
if (ONLY.includes('fixture')) {
  const emulator = await startEmulator(await freePort());
  const adminTimes = [];
  const commandTimes = [];
  for (let i = 0; i < 9; i++) {
    noteLoad();
    await emulator.admin('reset', { seed: 'empty' });
    let t = performance.now();
    await emulator.admin('apply', fixture);
    adminTimes.push(performance.now() - t);
    await emulator.admin('reset', { seed: 'empty' });
    t = performance.now();
    const r = spawnSync(
      process.execPath,
      [bin, 'emulator', 'apply', yamlFile, '--port', new URL(emulator.url).port],
      { env, stdio: 'ignore' },
    );
    commandTimes.push(performance.now() - t);
    if (r.status !== 0) throw new Error('billing emulator apply failed');
  }
  await stopEmulator(emulator.child);
  const a = median(adminTimes);
  const c = median(commandTimes);
  lines.push(
    `| ${records}-record fixture: POST /__emulator/apply (check + apply, in the emulator) | ${ms(a)} | < 1 s | ${a < 1000 ? 'yes' : 'no'} |`,
  );
  lines.push(
    `| ${records}-record fixture: \`billing emulator apply FILE.yaml\` (whole command) | ${ms(c)} | < 1 s | ${c < 1000 ? 'yes' : 'no'} |`,
  );
}

// 2. Start to first answer, against node -e 0, in alternation; beside them the floor: a bare
//    node:http server's first answer to the same poll (the Node start plus node:http).
if (ONLY.includes('start')) {
  const starts = [];
  const bare = [];
  const floor = [];
  for (let i = 0; i < STARTS + 2; i++) {
    noteLoad();
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    const nodeMs = performance.now() - t;
    const barePort = await freePort();
    const server = await spawnServing({
      argv: [
        '-e',
        `require('node:http').createServer((q, s) => s.end('{}')).listen(${barePort}, '127.0.0.1')`,
      ],
      port: barePort,
      env,
      pollMs: 2,
      stderr: 'ignore',
    });
    server.child.kill();
    const emulator = await startEmulator(await freePort());
    await stopEmulator(emulator.child);
    if (i < 2) continue;
    bare.push(nodeMs);
    floor.push(server.firstAnswerMs);
    starts.push(emulator.firstAnswerMs);
  }
  const ratio = median(starts) / median(bare);
  const floorRatio = median(floor) / median(bare);
  lines.push(
    `| \`billing emulator start\` to its first answer: ${ms(median(starts))}; \`node -e 0\`: ${ms(median(bare))} | ${ratio.toFixed(2)}× | ≤ 3× | ${ratio <= 3 ? 'yes' : 'no'} |`,
    `| the floor: a bare node:http server to its first answer: ${ms(median(floor))} | ${floorRatio.toFixed(2)}× | for information | |`,
  );
}

// 3. GET /orders/{id}: the emulator against a bare node:http server with the same bytes.
if (ONLY.includes('get')) {
  const emulator = await startEmulator(await freePort());
  const applied = await emulator.admin('apply', fixture);
  const id = applied.applied.orders.o3;
  const path = `/api/v2/profiles/1/orders/${id}`;
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const bytes = Buffer.from(await (await fetch(`${emulator.url}${path}`, { headers })).arrayBuffer());
  const barePort = await freePort();
  const bareSource = `
    const body = Buffer.from(${JSON.stringify(bytes.toString('base64'))}, 'base64');
    require('node:http').createServer({ keepAlive: true }, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    }).listen(${barePort}, '127.0.0.1', () => process.send('ready'));`;
  const bareServer = spawn(process.execPath, ['-e', bareSource], {
    env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((r) => bareServer.once('message', r));
  // An honest baseline: the same status, bytes and headers (but the Date).
  const heads = async (url) => {
    const res = await fetch(url, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    const names = [...res.headers].filter(([k]) => k !== 'date').map(([k, v]) => `${k}: ${v}`);
    return JSON.stringify({ status: res.status, names, body: body.toString('base64') });
  };
  if ((await heads(`${emulator.url}${path}`)) !== (await heads(`http://127.0.0.1:${barePort}${path}`)))
    throw new Error('the bare server does not answer what the emulator answers');
  const run = (url) =>
    new Promise((resolve, reject) =>
      autocannon({ url, connections: 10, duration: 4, headers }, (error, result) =>
        error ? reject(error) : resolve(result.requests.average),
      ),
    );
  const ours = [];
  const theirs = [];
  for (let i = 0; i < ROUNDS; i++) {
    noteLoad();
    theirs.push(await run(`http://127.0.0.1:${barePort}${path}`));
    ours.push(await run(`${emulator.url}${path}`));
  }
  bareServer.kill();
  await stopEmulator(emulator.child);
  const ratio = median(ours) / median(theirs);
  lines.push(
    `| GET /orders/{id} (${bytes.length} bytes): emulator ${Math.round(median(ours))} req/s; bare node:http ${Math.round(median(theirs))} req/s | ${ratio.toFixed(2)}× | ≥ 0.5× | ${ratio >= 0.5 ? 'yes' : 'no'} |`,
  );
}

noteLoad();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the runs, Node ${process.version}`;
const text = `### The emulator in a test suite (bench/emulator.mjs)

Last run: ${machine}; NODE_EXTRA_CA_CERTS unset; code cache warm (bench/.tmp/cache-emulator,
written by the first start of the run). Fixture rows: median of 9 (the emulator
reset to empty before each). Start-up: median of ${STARTS} after 2 of warm-up, each run of
\`node -e 0\` followed by a bare node:http server's start and one emulator start (spawn to
the first 200 of GET /__emulator/status, polled every 2 ms, timed from just before the spawn). Throughput:
autocannon, 10 connections, 4 s a round, the bare server and the emulator in alternation,
${ROUNDS} rounds each, median of the rounds' averages; the bare server is its own Node process
answering the emulator's bytes with the same headers (checked before the rounds).

| benchmark | figure | target | met |
|---|---|---|---|
${lines.join('\n')}
`;
if (onlyArg < 0) writeFileSync(join(root, 'bench', 'results-emulator.md'), text);
console.log(text);

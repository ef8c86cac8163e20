// Benchmarks of the emulator for a test suite (issue 19 §3, §4), on the machine's Node, each
// against a baseline taken in alternation (the machine is shared):
//
// 1. A 1,000-record fixture (100 customers, 20 products, 700 orders in every status, 100
//    subscriptions, 80 refunds) applied to a running emulator: the admin call alone
//    (validation and apply, the emulator reset to empty before each), and
//    `billing emulator apply FILE.yaml` as a user runs it. Target: under 1 s.
// 2. `billing emulator start` to its first answer (GET /__emulator/status answered 200),
//    against `node -e 0`. Target: within 3×.
// 3. GET /orders/{id} throughput (autocannon, 10 connections, 4 s a round, 3 rounds each in
//    alternation) against a bare node:http server in its own process answering the same
//    bytes with the same headers. Target: at least half.
//
// NODE_EXTRA_CA_CERTS is unset and BILLING_* cleared for every process. Writes
// bench/results-emulator.md (folded into bench/RESULTS.md by bench/run.mjs).
//
//   npm run build && node bench/emulator.mjs

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { dump } from 'js-yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const bin = join(root, 'bin', 'billing');
const TOKEN = 'sk_local_dev_emulator';
const env = { ...process.env, BILLING_CONFIG_DIR: join(tmp, 'config-emulator') };
delete env.NODE_EXTRA_CA_CERTS;
for (const key of Object.keys(env))
  if (key.startsWith('BILLING_') && key !== 'BILLING_CONFIG_DIR') delete env[key];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

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

async function startEmulator(port) {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', String(port)], {
    env,
    stdio: 'ignore',
  });
  const started = performance.now();
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const res = await fetch(`${url}/__emulator/status`);
      if (res.ok) return { child, url, firstAnswerMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the emulator exited');
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function stop(emulator) {
  emulator.child.kill('SIGINT');
  await new Promise((r) => emulator.child.once('exit', r));
}

async function admin(url, path, body) {
  const res = await fetch(`${url}/__emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const lines = [];
const fixture = bigFixture();
const records = Object.values(fixture).reduce((sum, kind) => sum + Object.keys(kind).length, 0);
const yamlFile = join(tmp, 'fixture-1000.yaml');
writeFileSync(yamlFile, dump(fixture));

// 1. Fixture apply.
{
  const emulator = await startEmulator(await freePort());
  const adminTimes = [];
  const commandTimes = [];
  for (let i = 0; i < 9; i++) {
    await admin(emulator.url, 'reset', { seed: 'empty' });
    let t = performance.now();
    await admin(emulator.url, 'apply', fixture);
    adminTimes.push(performance.now() - t);
    await admin(emulator.url, 'reset', { seed: 'empty' });
    t = performance.now();
    const r = spawnSync(
      process.execPath,
      [bin, 'emulator', 'apply', yamlFile, '--port', new URL(emulator.url).port],
      { env, stdio: 'ignore' },
    );
    commandTimes.push(performance.now() - t);
    if (r.status !== 0) throw new Error('billing emulator apply failed');
  }
  await stop(emulator);
  const a = median(adminTimes);
  const c = median(commandTimes);
  lines.push(
    `| ${records}-record fixture: POST /__emulator/apply (check + apply, in the emulator) | ${ms(a)} | < 1 s | ${a < 1000 ? 'yes' : 'no'} |`,
  );
  lines.push(
    `| ${records}-record fixture: \`billing emulator apply FILE.yaml\` (whole command) | ${ms(c)} | < 1 s | ${c < 1000 ? 'yes' : 'no'} |`,
  );
}

// 2. Start to first answer, against node -e 0, in alternation.
{
  const starts = [];
  const bare = [];
  for (let i = 0; i < 13; i++) {
    let t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    if (i >= 2) bare.push(performance.now() - t);
    const emulator = await startEmulator(await freePort());
    if (i >= 2) starts.push(emulator.firstAnswerMs);
    await stop(emulator);
    t = 0;
  }
  const ratio = median(starts) / median(bare);
  lines.push(
    `| \`billing emulator start\` to its first answer: ${ms(median(starts))}; \`node -e 0\`: ${ms(median(bare))} | ${ratio.toFixed(2)}× | ≤ 3× | ${ratio <= 3 ? 'yes' : 'no'} |`,
  );
}

// 3. GET /orders/{id}: the emulator against a bare node:http server with the same bytes.
{
  const emulator = await startEmulator(await freePort());
  const applied = await admin(emulator.url, 'apply', fixture);
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
  const run = (url) =>
    new Promise((resolve, reject) =>
      autocannon({ url, connections: 10, duration: 4, headers }, (error, result) =>
        error ? reject(error) : resolve(result.requests.average),
      ),
    );
  const ours = [];
  const theirs = [];
  for (let i = 0; i < 3; i++) {
    theirs.push(await run(`http://127.0.0.1:${barePort}${path}`));
    ours.push(await run(`${emulator.url}${path}`));
  }
  bareServer.kill();
  await stop(emulator);
  const ratio = median(ours) / median(theirs);
  lines.push(
    `| GET /orders/{id} (${bytes.length} bytes): emulator ${Math.round(median(ours))} req/s; bare node:http ${Math.round(median(theirs))} req/s | ${ratio.toFixed(2)}× | ≥ 0.5× | ${ratio >= 0.5 ? 'yes' : 'no'} |`,
  );
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${loadavg()
  .map((x) => x.toFixed(1))
  .join(' ')} at the end, Node ${process.version}`;
const text = `### The emulator in a test suite (bench/emulator.mjs)

Last run: ${machine}; NODE_EXTRA_CA_CERTS unset. Fixture rows: median of 9 (the emulator
reset to empty before each). Start-up: median of 11 after 2 of warm-up, each run of
\`node -e 0\` followed by one emulator start (spawn to the first 200 of GET
/__emulator/status, polled every 2 ms). Throughput: autocannon, 10 connections, 4 s a round,
the bare server and the emulator in alternation, 3 rounds each, median of the rounds' averages;
the bare server is its own Node process answering the emulator's bytes with the same headers.

| benchmark | figure | target | met |
|---|---|---|---|
${lines.join('\n')}
`;
writeFileSync(join(root, 'bench', 'results-emulator.md'), text);
console.log(text);

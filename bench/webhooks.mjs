// Throughput of `billing webhooks listen`: signed deliveries per second verified and
// acknowledged (and, second, also forwarded to an app), as a ratio to a bare node:http
// server that only answers 200, measured in the same run with the same load generator
// (autocannon, on loopback, a bounded number of requests, each with its own delivery id
// and signature so that nothing is skipped as a duplicate).
//
//   npm run build && node bench/webhooks.mjs [--requests N] [--connections C] [--rounds R]
//
// Prints a markdown section to stdout and writes bench/results-webhooks.md.
// NODE_EXTRA_CA_CERTS is unset and BILLING_* cleared for the processes started here
// (bench/harness.mjs).

import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, cleanEnv, root } from './harness.mjs';

const SECRET = 'whsec_bench_secret';
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const REQUESTS = arg('--requests', 40_000);
const CONNECTIONS = arg('--connections', 10);
const WARMUP = Math.min(2_000, REQUESTS);
const ROUNDS = arg('--rounds', 3);

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  console.error('bench/webhooks.mjs: build first (npm run build)');
  process.exit(1);
}

const env = cleanEnv({ BILLING_CONFIG_DIR: join(root, 'bench', '.tmp', 'webhooks-config') });

// A realistic body: an Event document with an order in its webhook form (~1.5 KB).
const order = {
  id: 1042,
  merchant_invoice_id: 'INV0001042',
  order_type: { value: 'single_payment', label: 'Single Payment' },
  status: { value: 'active', label: 'Active' },
  currency: 'EUR',
  channel: 'ECOM',
  description: 'Bench order',
  collect_initial_payment: true,
  card_details_saved: 'No',
  initial_amount: '49.90',
  customer_id: 7,
  customer: {
    display_customer_id: 'CUS-000007',
    merchant_customer_id: 'crm-7',
    first_name: 'Anna',
    last_name: 'Schmidt',
    full_name: 'Anna Schmidt',
    email: 'anna@example.com',
    phone: '+49 30 1',
    date_of_birth: null,
    street: 'Hauptstr. 1',
    city: 'Berlin',
    state: null,
    postal_code: '10115',
    country: 'DE',
    country_name: 'Germany',
  },
  order_products: [
    {
      id: 1,
      product_id: 3,
      name: 'Beans',
      selection_text: null,
      options: null,
      qty: 2,
      amount: '24.95',
      products_total: '49.90',
      discount_amount: '0.00',
      fee_amount: '0.00',
      tax_amount: '0.00',
      subtotal_amount: '49.90',
      product_discount_id: null,
      product_fee_id: null,
      product_tax_id: null,
    },
  ],
  summary: {
    products_total: '49.90',
    fee_total: '0.00',
    discount_total: '0.00',
    tax_total: '0.00',
    sub_total: '49.90',
    initial_amount: '49.90',
    payment_amount: '49.90',
    tax_type: null,
  },
  tag_list: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  status_updated_at: '2026-01-01T00:00:00.000Z',
};
const base = 'http://127.0.0.1:4010/api/v2/profiles/1/orders/1042';
const prefix = randomBytes(4).toString('hex');
let sequence = 0;

/** A fresh delivery: its own id, its Event document, signed now. */
function delivery() {
  const id = `evt_${prefix}_${++sequence}`;
  const body = JSON.stringify({
    id,
    event: 'order.active',
    occurred_at: new Date().toISOString(),
    data: { previous_status: 'pending', status: 'active', order },
    links: { order: base, payments: `${base}/payments`, scheduled_payments: `${base}/scheduled_payments` },
  });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
  return {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-delivery': id,
      'x-service-signature': `t=${t},v1=${v1}`,
    },
  };
}

/**
 * Signed before the run, so that the load generator spends nothing on crypto or JSON while
 * measuring. autocannon's connections each walk the request list from its start, so one
 * list would repeat ids across connections; instead each request takes the next unused one.
 */
function pool(size) {
  const signed = Array.from({ length: size }, delivery);
  let next = 0;
  return [{ setupRequest: (req) => Object.assign(req, signed[next++ % size]) }];
}

// The baseline runs in its own process, as listen does, so that neither shares the load
// generator's event loop.
const BARE_SERVER = `
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('{}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function bareServer() {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (d) => resolve(Number(d.trim())));
    child.once('exit', () => reject(new Error('the bare server did not start')));
  });
  return { port, child };
}

async function startListen(extra) {
  const child = spawn(
    process.execPath,
    [BIN, 'webhooks', 'listen', '--port', '0', '--secret', SECRET, '--json', ...extra],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
  });
  for (let i = 0; i < 200; i++) {
    const url = /Ready: paste (\S+) into/.exec(err)?.[1];
    if (url) return { url, child, stderr: () => err };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`listen did not start: ${err}`);
}

function stop(child) {
  return new Promise((resolve) => {
    child.once('close', resolve);
    child.kill('SIGINT');
  });
}

async function load(url, amount) {
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    amount,
    timeout: 10,
    requests: pool(amount),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url}: ${bad} requests were not answered 2xx`);
  return {
    // autocannon's own duration is in whole seconds: too coarse for a bounded run.
    rps: result.requests.total / ((performance.now() - started) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function measure(url) {
  await load(url, WARMUP);
  return load(url, REQUESTS);
}

const bare = await bareServer();
const app = await bareServer();
const plain = await startListen([]);
const forwarding = await startListen(['--forward-to', `http://127.0.0.1:${app.port}/hooks`]);
const targets = [
  ['bare node:http server (answers 200)', `http://127.0.0.1:${bare.port}/webhooks`],
  ['listen: verify + acknowledge', plain.url],
  ['listen --forward-to (bare app)', forwarding.url],
];

// The machines are shared: the three are measured in turn, ROUNDS times, and each keeps
// its best round, so that a burst of someone else's work does not decide the ratio.
const best = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, url] of targets) {
    const r = await measure(url);
    if (!best.has(name) || r.rps > best.get(name).rps) best.set(name, r);
  }
}
const rows = targets.map(([name]) => [name, best.get(name)]);
const baseline = rows[0][1];

await stop(plain.child);
await stop(forwarding.child);
const forwardedCount = Number(/received: (\d+) forwarded/.exec(forwarding.stderr())?.[1] ?? 0);
if (forwardedCount < REQUESTS * ROUNDS)
  throw new Error(`listen forwarded ${forwardedCount} deliveries, not all`);
bare.child.kill();
app.child.kill();

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const lines = [
  '## Webhooks listen throughput',
  '',
  `Signed deliveries (~${fmt(Buffer.byteLength(JSON.stringify({ order })) / 1024, 1)} KB Event documents, each with its own delivery id and a fresh signature) ` +
    `posted by autocannon on loopback: ${fmt(REQUESTS)} requests after ${fmt(WARMUP)} of warm-up, ${CONNECTIONS} connections, ` +
    `best of ${ROUNDS} rounds taken in turn, ` +
    `no pipelining. listen runs as \`node bin/billing webhooks listen --json\` with stdout to /dev/null; ` +
    `the bare server and the app behind --forward-to are separate \`node:http\` processes. Every request was answered 2xx; latencies have autocannon's 1 ms resolution. ` +
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; load generator, listener and app share these cores.`,
  '',
  '| server | req/s | ratio to bare | p50 ms | p99 ms |',
  '|---|---:|---:|---:|---:|',
  ...rows.map(
    ([name, r]) =>
      `| ${name} | ${fmt(r.rps)} | ${fmt(r.rps / baseline.rps, 2)}× | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} |`,
  ),
  '',
  `Target: listen (verify + acknowledge) ≥ 0.5× the bare server: ${rows[1][1].rps / baseline.rps >= 0.5 ? 'met' : 'NOT met'}.`,
  '',
];
const text = lines.join('\n');
process.stdout.write(text);
writeFileSync(join(root, 'bench', 'results-webhooks.md'), text);

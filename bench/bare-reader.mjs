// The floor under `billing orders list --all`: a Node process that reads the same pages the
// same way (page 1 alone for the total, then a window of CONCURRENCY keep-alive requests) and
// does nothing with them: no parsing, no checks, no output. bench/run.mjs times it beside
// billing, so the list rows can say how much of the time is the service and the machine.
//
//   node bench/bare-reader.mjs ORIGIN TOKEN ITEMS CONCURRENCY

import http from 'node:http';

const [origin, token, items, concurrency] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });

function page(n) {
  const url = `${origin}/api/v2/profiles/1/orders?page=${n}&items=${items}`;
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(url)),
        );
      })
      .on('error', reject);
  });
}

// Only page 1 is parsed, for its total, as billing must.
const first = JSON.parse((await page(1)).toString());
const total = first.pagination.total_pages;
let next = 2;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (next <= total) await page(next++);
  }),
);
agent.destroy();

// The floor under `billing orders get ID -o json`: a Node process that makes the same request
// with node:http and prints the same JSON (the order, indented by 2), and nothing else: no
// config, no checks, no formats. bench/startup.mjs times it beside billing in the same call.
//
//   node bench/bare-get.mjs ORIGIN TOKEN ID

import http from 'node:http';

const [origin, token, id] = process.argv.slice(2);
http
  .get(
    `${origin}/api/v2/profiles/1/orders/${id}`,
    { headers: { authorization: `Bearer ${token}` } },
    (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) process.exit(1);
        process.stdout.write(
          `${JSON.stringify(JSON.parse(Buffer.concat(chunks).toString()).order, null, 2)}\n`,
        );
      });
    },
  )
  .on('error', () => process.exit(1));

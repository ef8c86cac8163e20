// `import { startEmulator } from 'billing/emulator'` in a merchant's project where the packed
// package is installed: the import resolves through package.json `exports`, the types check
// with TypeScript's NodeNext resolution, and the emulator starts from a fixture on a free port,
// answers with its token, and stops.

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const CONSUMER = `
import { type Emulator, startEmulator } from 'billing/emulator';

const emulator: Emulator = await startEmulator({
  fixture: {
    customers: { ada: { first_name: 'Ada', last_name: 'Lovelace' } },
    products: { mug: { name: 'Mug', price: '12.00' } },
    orders: {
      first: { customer: '\${customers.ada.id}', lines: [{ product: '\${products.mug.id}' }], status: 'active' },
    },
  },
});
const res = await fetch(\`\${emulator.baseUrl}/profiles/\${emulator.profileId}/orders/\${emulator.ids.orders.first}\`, {
  headers: { authorization: \`Bearer \${emulator.token}\` },
});
const body = (await res.json()) as { order: { status: { value: string } } };
let refused = '';
await emulator.apply({ customers: { bad: { first_name: 'No last name' } } }).catch((e: Error) => {
  refused = e.message;
});
await emulator.stop();
console.log(JSON.stringify({ port: new URL(emulator.url).port, status: body.order.status.value, refused }));
`;

export async function expectProgrammaticEmulator(project: string, root: string): Promise<void> {
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        outDir: 'out',
        types: [],
        lib: ['ES2022', 'DOM'],
        // The package's declarations (dist/emulator.d.ts) are checked; TypeScript's own lib
        // files (lib.dom.d.ts and the ES libs, ~50,000 lines) are not: half of the CPU tsc took.
        skipLibCheck: false,
        skipDefaultLibCheck: true,
      },
      include: ['consumer.ts'],
    }),
  );
  const run = promisify(execFile);
  // Type-checks against dist/emulator.d.ts of the installed package, and compiles.
  await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
    cwd: project,
    timeout: 90_000,
  }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc refused the merchant's use of billing/emulator: ${error.stdout}`);
  });
  const { stdout } = await run(process.execPath, [join(project, 'out/consumer.js')], {
    cwd: project,
    timeout: 30_000,
  });
  const result = JSON.parse(stdout);
  expect(Number(result.port)).toBeGreaterThan(0);
  expect(result.port).not.toBe('4010');
  expect(result.status).toBe('active');
  expect(result.refused).toMatch(/customers\.bad\.last_name: is required/);
}

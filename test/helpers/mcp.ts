// `billing ARGS` (`mcp` and its flags) as an MCP client starts it: the built CLI as a child process spoken to
// over stdio by the SDK's own Client.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './cli.js';

export interface McpServer {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
}

export async function startMcp(
  args: string[],
  env: Record<string, string | undefined>,
  o: {
    /**
     * The command that runs the CLI, ARGS appended: by default `node bin/billing`; under
     * another program (`['faketime', '-f', '+1d', process.execPath, BIN]`) or another user.
     */
    command?: string[];
  } = {},
): Promise<McpServer> {
  const [command = process.execPath, ...before] = o.command ?? [process.execPath, BIN];
  const transport = new StdioClientTransport({
    command,
    args: [...before, ...args],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const client = new Client({ name: 'billing-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

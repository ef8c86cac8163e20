// billing mcp: its description; its code is ./mcp/, loaded (with the MCP SDK) on use. It imports
// nothing of ./mcp/: `billing --help` reads its name and line.

import { gather, verb } from '../../cli/kit/verb.js';

export const mcpVerb = verb({
  name: 'mcp',
  summary:
    'serve the billing tools to an AI assistant (Model Context Protocol over stdio); read-only unless --allow',
  flags: [
    {
      flag: '--allow <families>',
      help: 'write tools to offer: refunds, captures (capture and reverse), links, lifecycle (pause, resume, cancel); comma-separate or repeat',
      parse: gather,
    },
    {
      flag: '--max-refund <amount>',
      help: 'with --allow refunds (required): the most one refund may be, e.g. 50.00, or per currency EUR:50.00,USD:40.00',
    },
    {
      flag: '--max-total <amount>',
      help: 'with --allow refunds (required): the most this session may refund in all, per currency as --max-refund',
    },
    {
      flag: '--customers <ids>',
      help: "with --allow: write tools act only on these customers' orders and payments (comma-separate or repeat)",
      parse: gather,
    },
    { flag: '--allow-live', help: 'allow writes on a production environment (refused without it)' },
    {
      flag: '--journal <path>',
      help: "the session's journal (default: a new one in the state directory); an earlier session's to go on with it",
    },
    {
      flag: '--audit',
      help: "print what a session did (its journal's calls) and exit; the newest, or --journal's",
    },
  ],
  examples: [
    'billing --env sandbox mcp',
    'billing --env sandbox mcp --allow refunds,links --max-refund 50.00 --max-total 200.00',
    'billing --env sandbox mcp --allow lifecycle --customers 2,17',
    'billing --env production mcp --allow refunds --max-refund EUR:25.00 --max-total EUR:100.00 --allow-live',
    'billing mcp --audit',
    'billing mcp --audit --journal ./support.journal -o json',
  ],
  help:
    '\nAn MCP client starts it as a command, e.g. "command": "billing",\n' +
    '"args": ["--env", "sandbox", "mcp"]. stdout carries the protocol; stderr says\n' +
    'what is served and where the journal of the session is.\n\n' +
    'Reads (search, list_orders, get_order, order_timeline, get_customer,\n' +
    'list_payments, get_payment) return what the same command prints with -o json.\n\n' +
    'Writes exist only for the families --allow names. A refund is checked against\n' +
    '--max-refund and, with what the session refunded before, --max-total, in the\n' +
    "payment's currency, before anything is sent: over a cap it is refused (a tool\n" +
    "error) and nothing is sent. With --customers a write on another customer's\n" +
    'order or payment is refused the same way. On production the server does not\n' +
    'start with --allow unless --allow-live is given too. Every write is a row of\n' +
    "the session's journal: the same call again (same arguments and request_id) is\n" +
    'made once.\n',
  output: 'none',
  moves: 'money',
  words: ['assistant', 'ai', 'claude', 'agent'],
});

// billing emulator outbox: its description and its code.

import { writeListOrNote } from '../../cli/kit/result.js';
import { defineCommand, type OptionsOf, verb } from '../../cli/kit/verb.js';
import { textColumn as column } from '../../format/index.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { LIMIT_FLAG, PORT_FLAG } from './flags.js';

export const outboxVerb = verb({
  name: 'outbox',
  place: 60,
  summary: 'the payment links the emulator "sent" by email and SMS, newest first (emptied by reset)',
  flags: [PORT_FLAG, LIMIT_FLAG, { flag: '--order <id>', help: 'only the messages of this order' }],
  examples: ['billing emulator outbox', 'billing emulator outbox --order 1042 --json | jq -r ".[0].link"'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(outboxVerb, outbox);

interface OutboxMessage {
  id: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  link: string;
  order_id: number;
  sent_at: string;
}

const OUTBOX_COLUMNS = [
  column('sent_at', 'Sent', undefined, { giveUp: 2 }),
  column('channel', 'By', undefined, { giveUp: 1 }),
  column('to', 'To', undefined, { keep: true }),
  column('order_id', 'Order', undefined, { keep: true }),
  column('link', 'Link', undefined, { keep: true }),
];

async function outbox(rt: Runtime, _args: string[], flags: OptionsOf<typeof outboxVerb>): Promise<void> {
  const limit = parse.positiveInt('--limit', flags.limit);
  const orderId = flags.order === undefined ? undefined : parse.recordId('--order', flags.order);
  const origin = await emulatorOrigin(rt, flags);
  const all = (await adminCall<{ messages: OutboxMessage[] }>(origin, 'GET', 'outbox')).messages;
  const shown = all.filter((m) => orderId === undefined || m.order_id === orderId).slice(0, limit);
  await writeListOrNote(
    rt,
    shown,
    OUTBOX_COLUMNS,
    'The outbox is empty. Send a link with billing links email ORDER or billing links sms ORDER.',
  );
}

// billing links url: its description and its code.

import { constants } from 'node:fs';
import { access, link as hardLink, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { paymentLink } from '../../api/orders.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { safeLine } from '../../format/terminal.js';
import { checkedLink } from '../../ops/links/service.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { orderAfter, payableOrder, statusChange } from './run.js';

export const urlVerb = verb({
  name: 'url',
  place: 30,
  summary:
    'make and print the payment link (a draft order becomes pending); --qr draws it as a QR code, --png writes it to a file',
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--qr',
      help: 'draw the QR code in the terminal (plain text blocks when stdout is not a terminal)',
    },
    { flag: '--png <file>', help: 'write the QR code as a PNG image' },
    { flag: '--force', help: 'with --png, replace an existing file' },
  ],
  examples: [
    'billing links url 1042',
    'billing links url 1042 --qr',
    'billing links url 1042 --png order-1042.png',
    'billing links url 1042 --json | jq -r .payment_link',
  ],
  help:
    '\nMaking the link moves a draft order to pending, as sending it does. A complete, cancelled or\n' +
    'rejected order has nothing to pay: no link is made (exit 2).\n' +
    'With --qr the link is still printed, after the code. The PNG is written whole or not at\n' +
    'all (a temporary file, then renamed); an existing file is kept unless --force.\n',
  output: 'value',
  moves: 'data',
  words: ['qr'],
});

export default defineCommand(urlVerb, url);

export async function url(rt: Runtime, [id]: string[], flags: OptionsOf<typeof urlVerb>): Promise<void> {
  // Checked before the request: the link moves a draft order to pending.
  if (flags.png !== undefined) await checkTarget(flags.png, Boolean(flags.force));
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const current = await payableOrder(rt, orderId);
  const before = orderStatus(current);
  // The link the order already has is the one a new request gives again, where the service
  // says it: too long for a QR code is refused before the request moves the order.
  const known = current.payment_link;
  if (typeof known === 'string' && known !== '' && (flags.qr || flags.png !== undefined))
    await checkQrSize(known, 'not made');
  const result = await paymentLink(client, orderId, { signal: rt.signal });
  if (!result.url) {
    throw new BillingError('server', EXIT.unavailable, 'the service answered without a payment link');
  }
  const link = await checkedLink(rt, 'payment_link', result.url);
  if (flags.qr || flags.png !== undefined) {
    await checkQrSize(link, 'made', () => rt.io.stdout.write(`${safeLine(link)}\n`));
  }
  const order = await orderAfter(rt, orderId);
  const status = orderStatus(order);
  let drew = false;
  await writeRecord(
    rt,
    order,
    'order',
    { payment_link: link },
    {
      rows: async () => {
        if (flags.qr) rt.io.stdout.write(await qrText(link, rt.stdoutIsTTY));
        rt.io.stdout.write(`${safeLine(link)}\n`);
        drew = true;
      },
    },
  );
  if (flags.png !== undefined) {
    await writePng(flags.png, link, Boolean(flags.force));
    rt.info(`QR code of the payment link written to ${flags.png}.`);
  }
  if (flags.qr && !drew) {
    rt.info('note: --qr draws nothing with -o json; use --png FILE for an image');
  }
  rt.info(`Payment link of order ${orderId}. ${statusChange(orderId, before, status)}`);
}

/**
 * Refuses (exit 2) a link too long for a QR code, by the QR library's own measure. `made`
 * says whether the link was made already (then `shown` prints it, so that it is not lost).
 */
async function checkQrSize(link: string, made: 'made' | 'not made', shown?: () => void): Promise<void> {
  const QRCode = (await import('qrcode')).default;
  try {
    QRCode.create(link);
    return;
  } catch {
    shown?.();
  }
  throw new UsageError(
    `the payment link (${link.length} characters) is too long for a QR code; ${made === 'made' ? 'it was made and is printed above without one' : 'no link was made'}`,
    { hint: 'print the link without --qr/--png' },
  );
}

/** On a terminal, compact half blocks with colours; in a pipe, the same blocks without escape codes. */
async function qrText(link: string, tty: boolean): Promise<string> {
  const QRCode = (await import('qrcode')).default;
  const text = tty
    ? await QRCode.toString(link, { type: 'terminal', small: true })
    : await QRCode.toString(link, { type: 'utf8' });
  return text.endsWith('\n') ? text : `${text}\n`;
}

async function checkTarget(path: string, force: boolean): Promise<void> {
  if (path.trim() === '') throw new UsageError('--png needs a file name');
  try {
    await access(dirname(path), constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${path}: its directory does not exist or is not writable`);
  }
  if (force) return;
  try {
    await access(path);
  } catch {
    return;
  }
  throw new UsageError(`${path} already exists`, {
    hint: 'choose another name, or add --force to replace it',
  });
}

/** Written to a temporary file first, so that a reader never sees half an image. */
async function writePng(path: string, link: string, force: boolean): Promise<void> {
  const QRCode = (await import('qrcode')).default;
  const image = await QRCode.toBuffer(link, { type: 'png', width: 320, margin: 2 });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, image, { flag: 'wx' });
    if (force) {
      await rename(temp, path);
    } else {
      // link() fails when the name exists: no file that appeared meanwhile is replaced.
      await hardLink(temp, path).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'EEXIST') {
          throw new UsageError(`${path} already exists`, { hint: 'add --force to replace it' });
        }
        throw err;
      });
    }
  } finally {
    await unlink(temp).catch(() => {});
  }
}

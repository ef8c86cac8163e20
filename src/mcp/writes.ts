// The write tools, present only for the families --allow names: each is one row of the batch
// engine on the session's journal (./session.ts), with the actions the commands use
// (../moves.ts, ../actions.ts), so a call is made at most once however often it is repeated.
// A refund is held to the caps (./guards.ts) in its plan, after its payment is read and
// before anything is sent or journaled as started: a refund over a cap fails, nothing sent.

import { z } from 'zod';
import { type ApiClient, monotonicMs } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { getOrder } from '../api/orders.js';
import type { Order } from '../api/types.js';
import type { emailVerb } from '../commands/links/email.js';
import type { cancelVerb } from '../commands/orders/cancel.js';
import type { pauseVerb } from '../commands/orders/pause.js';
import type { resumeVerb } from '../commands/orders/resume.js';
import type { captureVerb } from '../commands/payments/capture.js';
import type { refundVerb } from '../commands/payments/refund.js';
import type { reverseVerb } from '../commands/payments/reverse.js';
import { BillingError, EXIT, UsageError } from '../errors.js';
import {
  cancelAction,
  emailLinkAction,
  orderRow,
  pauseAction,
  resumeAction,
  smsLinkAction,
} from '../ops/batch/on-orders.js';
import { captureAction, commandRow, refundAction, reverseAction } from '../ops/batch/on-payments.js';
import type { Action, ActionPlan, BatchRecord, Outcome } from '../ops/batch/row.js';
import type { BatchRow } from '../ops/batch/rows.js';
import { statusWord } from '../ops/batch/summary.js';
import * as parse from '../ops/runtime/args.js';
import { capDay } from './cap-day.js';
import type { Commands } from './commands.js';
import { type Mirror, mirror } from './flags.js';
import { customerRefusal, FAMILIES, type Family, type Guards, PolicyError, refundRefusal } from './guards.js';
import { type Cap, callKey, type Session } from './session.js';
import { answer, type ToolAnswer, type ToolSpec, toolError } from './tool.js';

const AMOUNTS = 'Amounts are decimal strings with at most two decimals ("12.50"), never numbers.';
const ONCE =
  'Made at most once per session: a call repeated with the same arguments (a retry after a lost answer) returns the first result with status "skipped" and sends nothing; to make the same move again on purpose, give a new request_id.';

const requestId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.:-]+$/)
  .describe(
    'optional: your id for this call (letters, digits, . _ : -); the same call with a new request_id is a new move',
  )
  .optional();

interface Context {
  client: ApiClient;
  session: Session;
  guards: Guards;
}

/**
 * Holds a refund to the caps: its plan throws (the row fails, nothing sent) when it is over
 * one, counted on the cap's day (./cap-day.ts) from the cap's ledger; its send is recorded in
 * the ledger (fsync'ed) before it leaves, and voided there when the service refuses it.
 */
function capped<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  action: Action<R, S, P, T>,
  ctx: Context,
  cap: Cap,
): Action<R, S, P, T> {
  let counted: { day: string; now: number; payment: number; currency: string | null } | undefined;
  return {
    ...action,
    plan: (state, row, prior) => {
      const plan = action.plan(state, row, prior);
      const currency = action.currencyOf(state);
      const day = capDay({
        service: ctx.client.serviceClock,
        monotonic: monotonicMs(),
        local: Date.now(),
        floor: cap.ledger.floor(cap.service),
      });
      if (day === undefined) {
        throw new BillingError(
          'server',
          EXIT.unavailable,
          "refused: the service's answers carry no Date header, so the day of the refund cap (--max-total) cannot be told; nothing was sent",
          {
            hint: "the cap counts the service's day, never this machine's clock alone: check that no proxy between strips the Date header (HTTP requires it); a person can make this refund with billing payments refund",
          },
        );
      }
      const refusal = refundRefusal(ctx.guards, {
        amount: plan.amount ?? '0',
        currency,
        spent: currency === null ? 0n : cap.ledger.spent(cap.service, day.day, currency),
      });
      if (refusal) {
        throw new PolicyError(`refused: ${refusal.reason}; nothing was sent`, refusal.left, {
          hint: 'a person can make this refund with billing payments refund, or start the server with higher caps',
        });
      }
      counted = { day: day.day, now: day.now, payment: action.idOf(row), currency };
      return plan;
    },
    send: async (state, plan, identity) => {
      if (counted === undefined || counted.currency === null || plan.amount === undefined) {
        throw new UsageError('the refund was not held to the caps; nothing was sent');
      }
      await cap.ledger.add({
        identity,
        service: cap.service,
        day: counted.day,
        amount: plan.amount,
        currency: counted.currency,
        payment: counted.payment,
        at: new Date(counted.now).toISOString(),
      });
      try {
        return await action.send(state, plan, identity);
      } catch (err) {
        // Refused as invalid (400, 422): nothing moved, so it does not count. Not a 409: a
        // repeat of one Idempotency-Key may be answered so while its first send is moving money.
        if (err instanceof ApiError && (err.status === 400 || err.status === 422)) {
          await cap.ledger.void(identity, `${err.status}: ${err.message}`);
        }
        throw err;
      }
    },
  };
}

/**
 * With --customers: after the action's own reads, the order's customer is read (the order an
 * order action read, or the order of the payment) and a customer not allowed fails the row
 * before anything is sent.
 */
function forCustomers<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  action: Action<R, S, P, T>,
  ctx: Context,
  what: (row: R) => string,
): Action<R, S, P, T> {
  if (ctx.guards.customers === undefined) return action;
  return {
    ...action,
    read: async (row) => {
      const state = await action.read(row);
      const known = state as { order?: Order; orderId?: number };
      const order = known.order ?? (await getOrder(ctx.client, known.orderId ?? Number.NaN));
      const refusal = customerRefusal(ctx.guards, what(row), order.customer_id);
      if (refusal) throw new PolicyError(`refused: ${refusal}; nothing was sent`);
      return state;
    },
  };
}

/** A row's outcome as the tool's result; a failed or in-doubt row is a tool error. */
function result<R extends BatchRow, T extends BatchRecord>(
  o: Outcome<R, T>,
  ctx: Context,
  what: Record<string, unknown>,
  done: string,
): ToolAnswer {
  const base = {
    ...what,
    ...(o.amount === undefined ? {} : { amount: o.amount }),
    ...(o.currency === null ? {} : { currency: o.currency }),
    journal: ctx.session.path,
  };
  if (o.status === 'failed') {
    // A guard's refusal is its own class, with what is left under the cap (issue 28).
    const policy =
      o.cause instanceof PolicyError
        ? { exit_class: 'policy', ...(o.cause.left === undefined ? {} : { left: o.cause.left }) }
        : {};
    return toolError(o.cause ?? new UsageError(o.error ?? 'failed'), { ...base, ...policy });
  }
  if (o.status === 'in_doubt') {
    return toolError(o.cause ?? new UsageError(o.error ?? 'in doubt'), {
      ...base,
      status: 'in_doubt',
      next: 'sent, but the answer did not confirm it: call again with the same arguments; the order is checked before anything is sent again',
    });
  }
  if (o.status === 'nothing_to_do') {
    return answer({ ...base, status: 'nothing_to_do', note: `${o.note}; nothing was sent` });
  }
  if (o.status === 'already_done') {
    return answer({
      ...base,
      status: statusWord(o.status, done),
      note: `already ${done} by an earlier call of this session with the same arguments; nothing was sent`,
      result_id: o.resultId,
    });
  }
  return answer({
    ...base,
    status: statusWord(o.status, done),
    result_id: o.resultId,
    recovered: o.recovered === true,
    ...(o.record === undefined ? {} : { record: o.record }),
  });
}

function optionalAmount(value: unknown): string | undefined {
  return value === undefined ? undefined : parse.amount('amount', String(value));
}

/** What a write tool runs: its command (by name and description: its input) and its action. */
interface Runs {
  name: string;
  title: string;
  description: string;
  /** The command it mirrors, as `billing help` names it, and its input made from that command's description. */
  command: string;
  input: Mirror<object>;
}

/** The one record a call names: the command's positional argument, a whole number by the tool's schema. */
const idOf = (input: Mirror<object>, a: Record<string, unknown>) => Number(input.argsOf(a)[0]);

function paymentTool(
  o: Runs & {
    make(client: ApiClient): Action<ReturnType<typeof commandRow>, unknown, ActionPlan, BatchRecord>;
    caps?: boolean;
  },
  ctx: Context,
): ToolSpec {
  const takesAmount = 'amount' in o.input.input;
  return {
    name: o.name,
    title: o.title,
    description: o.description,
    commands: [o.command],
    write: true,
    input: { ...o.input.input, request_id: requestId },
    act: async (a, signal) => {
      const paymentId = idOf(o.input, a);
      const value = optionalAmount((o.input.optionsOf(a) as { amount?: string }).amount);
      const row = {
        ...commandRow(paymentId, value),
        key: callKey(o.name, paymentId, takesAmount ? (value ?? 'full') : undefined, a.request_id as string),
      };
      const action = forCustomers(o.make(ctx.client), ctx, () => `payment ${paymentId}`);
      const outcome = o.caps
        ? await ctx.session.withCap((cap) => ctx.session.run(capped(action, ctx, cap), row, signal))
        : await ctx.session.run(action, row, signal);
      return result(outcome, ctx, { payment_id: paymentId }, action.done);
    },
  };
}

function orderTool(
  o: Runs & {
    /** More commands it runs (send_payment_link: links email and links sms). */
    also?: readonly string[];
    make(
      client: ApiClient,
      a: Record<string, unknown>,
    ): Action<ReturnType<typeof orderRow>, unknown, ActionPlan, BatchRecord>;
    detail?(a: Record<string, unknown>): string;
    /** Its own arguments, beyond the command's. */
    own?: ToolSpec['input'];
  },
  ctx: Context,
): ToolSpec {
  return {
    name: o.name,
    title: o.title,
    description: o.description,
    commands: [o.command, ...(o.also ?? [])],
    write: true,
    input: { ...o.input.input, ...o.own, request_id: requestId },
    act: async (a, signal) => {
      const orderId = idOf(o.input, a);
      const row = {
        ...orderRow(orderId, 0, 1),
        key: callKey(o.name, orderId, o.detail?.(a), a.request_id as string),
      };
      const action = forCustomers(o.make(ctx.client, a), ctx, () => `order ${orderId}`);
      const outcome = await ctx.session.run(action, row, signal);
      return result(outcome, ctx, { order_id: orderId }, action.done);
    },
  };
}

type AnyAction = Action<never, unknown, ActionPlan, BatchRecord>;
const loose = (make: (client: ApiClient) => unknown) => make as (client: ApiClient) => AnyAction;

/** The write tools of the families allowed, each one's input its command's as the manifest declares it. */
export function writeTools(ctx: Context, commands: Commands): ToolSpec[] {
  const tools: Record<Family, ToolSpec[]> = {
    refunds: [
      paymentTool(
        {
          name: 'refund_payment',
          title: 'Refund a payment',
          description: `Refunds a debit or capture, in full or in part: money goes back to the customer. Held to this session's caps, per currency, before anything is sent: at most --max-refund a call and --max-total a day (the service's UTC day, across every session on this service); a refund over a cap is refused with a message to relay to a person. Reads the payment and its order's payments first (2-3 requests), then sends one refund. ${AMOUNTS} ${ONCE}`,
          command: 'payments refund',
          input: mirror<typeof refundVerb>(commands('payments refund'), ['amount']),
          make: loose(refundAction),
          caps: true,
        },
        ctx,
      ),
    ],
    captures: [
      paymentTool(
        {
          name: 'capture_payment',
          title: 'Capture a pre-authorisation',
          description: `Captures a successful pre-authorisation, in full or in part: the customer is charged. Reads the payment and its order's payments first (2-3 requests), then sends one capture. ${AMOUNTS} ${ONCE}`,
          command: 'payments capture',
          input: mirror<typeof captureVerb>(commands('payments capture'), ['amount']),
          make: loose(captureAction),
        },
        ctx,
      ),
      paymentTool(
        {
          name: 'reverse_payment',
          title: 'Reverse a pre-authorisation',
          description: `Reverses (releases) a pre-authorisation that was not captured: the hold on the customer's card is lifted and it can no longer be captured. Reads first (2-3 requests), then sends one reversal. ${ONCE}`,
          command: 'payments reverse',
          input: mirror<typeof reverseVerb>(commands('payments reverse')),
          make: loose(reverseAction),
        },
        ctx,
      ),
    ],
    links: [
      orderTool(
        {
          name: 'send_payment_link',
          title: 'Send a payment link',
          description: `Sends the customer the order's payment link by e-mail or SMS, to the address on the order (refused for an order that is complete, cancelled or rejected). Reads the order (1 request), then sends one message. ${ONCE}`,
          command: 'links email',
          also: ['links sms'],
          input: mirror<typeof emailVerb>(commands('links email')),
          own: { channel: z.enum(['email', 'sms']).describe('email or sms') },
          detail: (a) => String(a.channel),
          make: (client, a) => loose(a.channel === 'sms' ? smsLinkAction : emailLinkAction)(client),
        },
        ctx,
      ),
    ],
    lifecycle: [
      orderTool(
        {
          name: 'pause_order',
          title: 'Pause a subscription',
          description: `Pauses an order's recurring payments until it is resumed. Reads the order (1 request), then sends one pause. ${ONCE}`,
          command: 'orders pause',
          input: mirror<typeof pauseVerb>(commands('orders pause')),
          make: loose(pauseAction),
        },
        ctx,
      ),
      orderTool(
        {
          name: 'resume_order',
          title: 'Resume a subscription',
          description: `Resumes a paused order's recurring payments. Reads the order (1 request), then sends one resume. ${ONCE}`,
          command: 'orders resume',
          input: mirror<typeof resumeVerb>(commands('orders resume')),
          make: loose(resumeAction),
        },
        ctx,
      ),
      orderTool(
        {
          name: 'cancel_order',
          title: 'Cancel an order',
          description: `Cancels an order: no further payments are taken; it cannot be undone. Reads the order (1 request), then sends one cancel. ${ONCE}`,
          command: 'orders cancel',
          input: mirror<typeof cancelVerb>(commands('orders cancel')),
          make: loose(cancelAction),
        },
        ctx,
      ),
    ],
  };
  const list = (Object.keys(FAMILIES) as Family[])
    .filter((f) => ctx.guards.allowed.has(f))
    .flatMap((f) => tools[f]);
  return list;
}

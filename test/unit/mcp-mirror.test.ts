// Issue 29: an MCP tool's input is made from its command's description (src/mcp/flags.ts
// `mirror`, from the command's declaration as the manifest holds it): the argument, the flags picked by option name (a name the command lacks does not
// compile: tsc checks this file in `npm run check`), and back to the command's arguments and
// options as commander would give them. The tools over stdio: test/mcp/inputs.test.ts.

import { describe, expect, it } from 'vitest';
import { declarationOf } from '../../src/cli/build.js';
import { getVerb as customerVerb } from '../../src/commands/customers/get.js';
import { getVerb as orderVerb } from '../../src/commands/orders/get.js';
import { listVerb as paymentsVerb } from '../../src/commands/payments/list.js';
import { refundVerb } from '../../src/commands/payments/refund.js';
import { EXPANSIONS } from '../../src/domain/expand.js';
import { PAYMENT_STATUSES } from '../../src/domain/payments.js';
import { mirror } from '../../src/mcp/flags.js';

describe('mirror: a tool made from a command', () => {
  it("a record's id is a whole number named <record>_id; text keeps its key", () => {
    const customer = mirror<typeof customerVerb>(declarationOf(customerVerb));
    expect(Object.keys(customer.input)).toEqual(['customer_id']);
    expect(customer.input.customer_id?.safeParse(2).success).toBe(true);
    expect(customer.input.customer_id?.safeParse('2').success).toBe(false);
    expect(customer.input.customer_id?.safeParse(0).success).toBe(false);
    expect(customer.argsOf({ customer_id: 2 })).toEqual(['2']);
    const order = mirror<typeof orderVerb>(declarationOf(orderVerb));
    expect(order.input.order?.safeParse('INV-000123').success).toBe(true);
    expect(order.argsOf({ order: 'INV-000123' })).toEqual(['INV-000123']);
  });

  it('only the flags picked, enums of their values; a comma list is an array joined back', () => {
    const payments = mirror<typeof paymentsVerb>(declarationOf(paymentsVerb), ['status', 'order']);
    expect(Object.keys(payments.input).sort()).toEqual(['order', 'status']);
    expect(payments.input.status?.safeParse(['succeeded']).success).toBe(true);
    expect(payments.input.status?.safeParse(['new']).success).toBe(false);
    expect(payments.input.status?.safeParse([PAYMENT_STATUSES[0]]).success).toBe(true);
    const order = mirror<typeof orderVerb>(declarationOf(orderVerb), ['expand']);
    expect(order.input.expand?.safeParse([...EXPANSIONS.order]).success).toBe(true);
    expect(order.input.expand?.safeParse(['everything']).success).toBe(false);
    expect(order.optionsOf({ order: '1', expand: ['payments', 'next_payment'] }).expand).toBe(
      'payments,next_payment',
    );
  });

  it("the command's options: its defaults, then what the call gives of the flags picked", () => {
    const payments = mirror<typeof paymentsVerb>(declarationOf(paymentsVerb), ['status']);
    expect(payments.optionsOf({ status: ['failed'], limit: '3' })).toEqual({
      concurrency: '8',
      status: ['failed'],
    });
    const refund = mirror<typeof refundVerb>(declarationOf(refundVerb), ['amount']);
    expect(refund.optionsOf({ payment_id: 1 })).toEqual({ concurrency: '4' });
    expect(refund.optionsOf({ payment_id: 1, amount: '5.00' }).amount).toBe('5.00');
  });

  it('a flag the command does not declare cannot be picked', () => {
    // @ts-expect-error payments refund has no --reason
    const wrong = mirror<typeof refundVerb>(declarationOf(refundVerb), ['reason']);
    expect(Object.keys(wrong.input)).toEqual(['payment_id']);
  });
});

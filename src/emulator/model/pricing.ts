// Line and order totals in integer minor units (BigInt). Tax is a percentage of the
// line after discount, rounded half up to the cent.

import { fromMinor, toMinor } from '../../domain/money.js';
import type { OrderLine, Product, Summary } from './types.js';

export interface LineInput {
  product: Product;
  qty: number;
  /** Unit price; the product's price when absent. */
  unitAmount?: string;
  discountMinor?: bigint;
  feeMinor?: bigint;
}

/** Percentages are kept to 4 decimals, so 7.5 % is 75000 millionths of the base. */
const PERCENT_SCALE = 10_000;

export function isTaxPercentage(value: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= 0 &&
    value <= 100 &&
    Math.abs(value * PERCENT_SCALE - Math.round(value * PERCENT_SCALE)) < 1e-6
  );
}

export function taxOf(baseMinor: bigint, percentage: number): bigint {
  if (baseMinor <= 0n) return 0n;
  const scaled = BigInt(Math.round(percentage * PERCENT_SCALE));
  const divisor = 100n * BigInt(PERCENT_SCALE);
  return (baseMinor * scaled + divisor / 2n) / divisor;
}

export function lineTotals(input: LineInput): {
  unit: bigint;
  productsTotal: bigint;
  discount: bigint;
  fee: bigint;
  tax: bigint;
  subtotal: bigint;
} {
  const unit = toMinor(input.unitAmount ?? input.product.price);
  const productsTotal = unit * BigInt(input.qty);
  const discount = input.discountMinor ?? 0n;
  const fee = input.feeMinor ?? 0n;
  const percentage = input.product.tax_percentage;
  const tax = percentage ? taxOf(productsTotal - discount, percentage) : 0n;
  return { unit, productsTotal, discount, fee, tax, subtotal: productsTotal - discount + fee + tax };
}

export function priceLine(id: number, input: LineInput): OrderLine {
  const totals = lineTotals(input);
  return {
    id,
    product_id: input.product.id,
    name: input.product.name,
    description: input.product.description,
    qty: input.qty,
    amount: fromMinor(totals.unit),
    products_total: fromMinor(totals.productsTotal),
    discount_amount: fromMinor(totals.discount),
    fee_amount: fromMinor(totals.fee),
    tax_amount: fromMinor(totals.tax),
    subtotal_amount: fromMinor(totals.subtotal),
    tax_percentage: input.product.tax_percentage,
  };
}

export function summarise(lines: readonly OrderLine[]): Summary {
  const sum = (pick: (line: OrderLine) => string) =>
    lines.reduce((total, line) => total + toMinor(pick(line)), 0n);
  const subTotal = fromMinor(sum((line) => line.subtotal_amount));
  return {
    products_total: fromMinor(sum((line) => line.products_total)),
    fee_total: fromMinor(sum((line) => line.fee_amount)),
    discount_total: fromMinor(sum((line) => line.discount_amount)),
    tax_total: fromMinor(sum((line) => line.tax_amount)),
    sub_total: subTotal,
    initial_amount: subTotal,
    payment_amount: subTotal,
    tax_type: lines.some((line) => line.tax_percentage) ? 'percentage' : null,
  };
}

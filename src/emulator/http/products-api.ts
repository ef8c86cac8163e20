// Products (paths assumed: the interface does not show them).

import { pageOfIds } from '../model/pagination.js';
import { isTaxPercentage } from '../model/pricing.js';
import { productRecord } from '../model/records.js';
import { HttpError, type Reply } from '../model/reply.js';
import type { Product, ProductType } from '../model/types.js';
import {
  AMOUNT_FORM,
  currency,
  decimalString,
  nullableString,
  optionalBoolean,
  Problems,
  requiredString,
} from '../model/validate.js';
import { rootRecord } from './body.js';
import type { ApiRequest, Handlers } from './context.js';
import { pathRecord } from './lookups.js';

const PRODUCT_TYPES: readonly ProductType[] = ['single', 'subscription'];

export function listProducts({ state, profileId, query }: ApiRequest): Reply {
  const { ids, pagination } = pageOfIds(state.productIds(profileId), query);
  return {
    status: 200,
    body: { products: ids.map((id) => productRecord(state.products.get(id) as Product)), pagination },
  };
}

export function getProduct({ state, profileId, params }: ApiRequest): Reply {
  const product = pathRecord(params[0], 'product', (id) => state.findProduct(profileId, id));
  return { status: 200, body: { product: productRecord(product) } };
}

export function createProduct({ state, profileId, rawBody }: ApiRequest): Reply {
  const body = rootRecord(rawBody, 'product');
  const problems = new Problems();
  const name = requiredString(body, 'name', problems);
  const price = priceField(body.price, problems);
  const productCurrency = currency(body, problems);
  const productType = productTypeField(body.product_type, problems);
  const description = nullableString(body, 'description', problems) || null;
  const priceLocked = optionalBoolean(body, 'price_locked', problems);
  const taxPercentage = taxField(body.tax_percentage, problems);
  problems.throwIfAny('product');

  const now = state.nowIso();
  const product = state.addProduct({
    id: state.nextId('product'),
    profile_id: profileId,
    name: name!,
    description,
    price: price!,
    currency: productCurrency!,
    product_type: productType,
    price_locked: priceLocked,
    tax_percentage: taxPercentage,
    created_at: now,
    updated_at: now,
  });
  return { status: 201, body: { product: productRecord(product) } };
}

export function deleteProduct({ state, profileId, params }: ApiRequest): Reply {
  const product = pathRecord(params[0], 'product', (id) => state.findProduct(profileId, id));
  const uses = state.ordersUsingProduct(product.id);
  if (uses > 0) {
    throw new HttpError(409, `product is in use by ${uses} order${uses === 1 ? '' : 's'}`);
  }
  state.removeProduct(product);
  return { status: 204 };
}

function priceField(value: unknown, problems: Problems): string | undefined {
  if (value === undefined || value === null || value === '') {
    problems.add('price', 'price is required');
    return undefined;
  }
  const price = decimalString(value);
  if (price === null) problems.add('price', `price must be ${AMOUNT_FORM}`);
  return price ?? undefined;
}

function productTypeField(value: unknown, problems: Problems): ProductType {
  if (value === undefined) return 'single';
  if (PRODUCT_TYPES.includes(value as ProductType)) return value as ProductType;
  problems.add('product_type', `product_type must be one of ${PRODUCT_TYPES.join(', ')}`);
  return 'single';
}

function taxField(value: unknown, problems: Problems): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && isTaxPercentage(value)) return value;
  problems.add('tax_percentage', 'tax_percentage must be a number from 0 to 100 with at most 4 decimals');
  return null;
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const PRODUCT_HANDLERS = { listProducts, getProduct, createProduct, deleteProduct } satisfies Handlers;

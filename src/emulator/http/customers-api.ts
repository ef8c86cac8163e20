// Customers (paths assumed: the interface does not show them).

import { pageOfIds } from '../model/pagination.js';
import { countryName, customerRecord } from '../model/records.js';
import { HttpError, type Reply } from '../model/reply.js';
import type { Customer } from '../model/types.js';
import { isCalendarDate, isEmail, nullableString, Problems, requiredString } from '../model/validate.js';
import { rootRecord } from './body.js';
import type { ApiRequest, Handlers } from './context.js';
import { pathRecord } from './lookups.js';

export function listCustomers({ state, profileId, query }: ApiRequest): Reply {
  const { ids, pagination } = pageOfIds(state.customerIds(profileId), query);
  return {
    status: 200,
    body: { customers: ids.map((id) => customerRecord(state.customers.get(id) as Customer)), pagination },
  };
}

export function getCustomer({ state, profileId, params }: ApiRequest): Reply {
  const customer = pathRecord(params[0], 'customer', (id) => state.findCustomer(profileId, id));
  return { status: 200, body: { customer: customerRecord(customer) } };
}

export function createCustomer({ state, profileId, rawBody }: ApiRequest): Reply {
  const body = rootRecord(rawBody, 'customer');
  const problems = new Problems();
  const firstName = requiredString(body, 'first_name', problems);
  const lastName = requiredString(body, 'last_name', problems);
  const email = nullableString(body, 'email', problems);
  if (email && !isEmail(email)) problems.add('email', `email "${email}" is not a valid email address`);
  const dateOfBirth = nullableString(body, 'date_of_birth', problems);
  if (dateOfBirth && !isCalendarDate(dateOfBirth)) {
    problems.add('date_of_birth', 'date_of_birth must be a date written YYYY-MM-DD');
  }
  const country = nullableString(body, 'country', problems);
  if (country && !isCountryCode(country)) {
    problems.add('country', 'country must be a two-letter country code, like DE');
  }
  const rawMerchantId = body.merchant_customer_id;
  const merchantCustomerId =
    typeof rawMerchantId === 'number' && Number.isSafeInteger(rawMerchantId)
      ? String(rawMerchantId)
      : nullableString(body, 'merchant_customer_id', problems);
  const text = (field: string) => nullableString(body, field, problems) || null;
  const phone = text('phone');
  const street = text('street');
  const city = text('city');
  const region = text('state');
  const postalCode = text('postal_code');
  problems.throwIfAny('customer');

  const now = state.nowIso();
  const customer = state.addCustomer({
    id: state.nextId('customer'),
    profile_id: profileId,
    merchant_customer_id: merchantCustomerId || null,
    first_name: firstName!,
    last_name: lastName!,
    email: email || null,
    phone,
    date_of_birth: dateOfBirth || null,
    street,
    city,
    state: region,
    postal_code: postalCode,
    country: country ? country.toUpperCase() : null,
    created_at: now,
    updated_at: now,
  });
  return { status: 201, body: { customer: customerRecord(customer) } };
}

export function deleteCustomer({ state, profileId, params }: ApiRequest): Reply {
  const customer = pathRecord(params[0], 'customer', (id) => state.findCustomer(profileId, id));
  const uses = state.ordersUsingCustomer(customer.id);
  if (uses > 0) {
    throw new HttpError(409, `customer is in use by ${uses} order${uses === 1 ? '' : 's'}`);
  }
  state.removeCustomer(customer);
  return { status: 204 };
}

function isCountryCode(text: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(text)) return false;
  const name = countryName(text);
  return name !== null && name !== text.toUpperCase() && name !== 'Unknown Region';
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const CUSTOMER_HANDLERS = {
  listCustomers,
  getCustomer,
  createCustomer,
  deleteCustomer,
} satisfies Handlers;

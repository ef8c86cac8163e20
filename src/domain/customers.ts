// A customer's fields as a merchant gives them: the one list that the route (the fields its
// body may have, which the emulator checks), `customers create`'s flags and its code read.

import { isRecord } from './records.js';

export interface CustomerField {
  /** The field of the customer record. */
  field: string;
  /** The placeholder of its flag's value (`--first-name <name>`). */
  value: string;
  help?: string;
}

export const CUSTOMER_FIELDS = [
  { field: 'first_name', value: 'name', help: 'first name (needed)' },
  { field: 'last_name', value: 'name', help: 'last name (needed)' },
  { field: 'email', value: 'email' },
  { field: 'phone', value: 'phone' },
  { field: 'date_of_birth', value: 'date', help: 'a day: 1990-12-10 or 10/12/1990' },
  { field: 'merchant_customer_id', value: 'id', help: 'your own id of the customer' },
  { field: 'street', value: 'street' },
  { field: 'city', value: 'city' },
  { field: 'state', value: 'state' },
  { field: 'postal_code', value: 'code' },
  { field: 'country', value: 'code', help: 'two-letter country code' },
] as const satisfies readonly CustomerField[];

export type CustomerFieldName = (typeof CUSTOMER_FIELDS)[number]['field'];

/** A snake_case field as commander names its flag's option: postal_code → postalCode. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

export const camel = <S extends string>(field: S) =>
  field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as Camel<S>;

/** The flag of a field: first_name → --first-name. */
export const flagOf = (field: string) => `--${field.replaceAll('_', '-')}`;

type Kebab<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Kebab<Tail>}` : S;
type FieldFlags<T extends readonly CustomerField[]> = {
  readonly [K in keyof T]: T[K] extends CustomerField
    ? { readonly flag: `--${Kebab<T[K]['field']>} <${T[K]['value']}>`; readonly help: string }
    : never;
};

/** The flag of each field, as a command's description declares it (`--first-name <name>`), typed by name. */
export const CUSTOMER_FLAGS = CUSTOMER_FIELDS.map((f: CustomerField) => ({
  flag: `${flagOf(f.field)} <${f.value}>`,
  help: f.help ?? '',
})) as unknown as FieldFlags<typeof CUSTOMER_FIELDS>;

const name = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** A person's name as the service sends it: full_name (or name), else first and last name; '' when none. */
export function personName(person: unknown): string {
  if (!isRecord(person)) return '';
  return (
    name(person.full_name) ||
    name(person.name) ||
    [name(person.first_name), name(person.last_name)].filter(Boolean).join(' ')
  );
}

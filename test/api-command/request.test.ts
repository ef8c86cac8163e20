// How billing api builds a request: fields into a body (as gh does) and PATH into a URL.

import { describe, expect, it } from 'vitest';
import { nest, parseField, resolveUrl } from '../../src/commands/api.js';
import { exactNumber, stringifyExactJson } from '../../src/domain/exact-json.js';

const fields = (...specs: string[]) => nest(specs.map((s) => parseField(s, true)));

describe('nest', () => {
  it('nests keys, appends to lists, starts a new object when a key repeats', () => {
    expect(
      fields(
        'order[currency]=EUR',
        'order[order_products][][product_id]=1',
        'order[order_products][][qty]=2',
        'order[order_products][][product_id]=3',
        'tags[]=a',
        'tags[]=b',
      ),
    ).toEqual({
      order: {
        currency: 'EUR',
        order_products: [
          { product_id: exactNumber('1'), qty: exactNumber('2') },
          { product_id: exactNumber('3') },
        ],
      },
      tags: ['a', 'b'],
    });
  });

  it('refuses a key that is a list in one field and an object in another', () => {
    expect(() => fields('a[]=1', 'a[b]=2')).toThrow(/mixes a list and an object/);
    expect(() => fields('a[b=1')).toThrow(/is not key, key\[sub\] or key\[\]/);
  });

  it('-F types values; -f keeps them as text; key=value is required', () => {
    expect(parseField('n=-12.5', true)).toEqual(['n', exactNumber('-12.5')]);
    // A number keeps its digits: never rounded through a double (issue 16 §6).
    expect(stringifyExactJson(fields('amount=12345678901234567.89', 'id=9007199254740993'))).toBe(
      '{"amount":12345678901234567.89,"id":9007199254740993}',
    );
    expect(parseField('n=0012', true)).toEqual(['n', '0012']);
    expect(parseField('n=12', false)).toEqual(['n', '12']);
    expect(() => parseField('novalue', true)).toThrow(/-F takes key=value/);
  });
});

describe('resolveUrl', () => {
  const ctx = {
    baseUrl: 'https://api.example/api/v2/',
    baseUrlV1: 'https://api.example/api/v1',
    profileId: 7,
  };

  it('puts the profile in front, or where {profile} is written, once', () => {
    expect(resolveUrl('/orders/42', { ...ctx, v1: false })).toBe(
      'https://api.example/api/v2/profiles/7/orders/42',
    );
    expect(resolveUrl('orders?page=2', { ...ctx, v1: false })).toBe(
      'https://api.example/api/v2/profiles/7/orders?page=2',
    );
    expect(resolveUrl('/profiles/{profile}/orders', { ...ctx, v1: false })).toBe(
      'https://api.example/api/v2/profiles/7/orders',
    );
    expect(resolveUrl('/profiles/9/orders', { ...ctx, v1: false })).toBe(
      'https://api.example/api/v2/profiles/9/orders',
    );
  });

  it('--v1: the v1 base and its profile_id query', () => {
    expect(resolveUrl('/orders/create_single_order', { ...ctx, v1: true })).toBe(
      'https://api.example/api/v1/orders/create_single_order?profile_id=7',
    );
  });

  it('an absolute URL under a base as is; elsewhere refused', () => {
    const url = 'https://api.example/api/v2/profiles/7/orders/1';
    expect(resolveUrl(url, { ...ctx, v1: false })).toBe(url);
    expect(() => resolveUrl('https://evil.example/api/v2/orders', { ...ctx, v1: false })).toThrow(
      /not under the API base/,
    );
    expect(() => resolveUrl('https://api.example/api/v2x/orders', { ...ctx, v1: false })).toThrow(
      /not under/,
    );
  });

  it('no profile: a usage error naming the fix', () => {
    expect(() => resolveUrl('/orders', { baseUrl: ctx.baseUrl, v1: false })).toThrow(/no merchant profile/);
  });
});

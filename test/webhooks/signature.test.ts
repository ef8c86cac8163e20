import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  signatureHeader,
  verifySignature,
} from '../../src/webhooks/signature.js';

const SECRET = 'whsec_test_secret';
const BODY = '{"id":"evt_1","event":"order.active","data":{"status":"active"}}';
const NOW = 1_700_000_000;
const stripe = new Stripe('sk_test_unused');

describe('signature', () => {
  it('is hex HMAC-SHA256 of "<t>.<raw body>" with the secret as given', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(computeSignature(SECRET, NOW, BODY)).toBe(expected);
    expect(signatureHeader(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${expected}`);
    // Bytes, not text: a Buffer signs the same as its string.
    expect(computeSignature(SECRET, NOW, Buffer.from(BODY))).toBe(expected);
  });

  it('verifies what it signs, and refuses a changed body or another secret', () => {
    const header = signatureHeader(SECRET, BODY, NOW);
    expect(verifySignature(BODY, header, SECRET, { now: NOW })).toEqual({ ok: true, timestamp: NOW });
    expect(verifySignature(`${BODY} `, header, SECRET, { now: NOW })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(BODY, header, 'whsec_other', { now: NOW })).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('accepts any matching v1 among several and ignores other schemes', () => {
    const good = computeSignature(SECRET, NOW, BODY);
    const bad = 'a'.repeat(64);
    const header = `t=${NOW},v0=${bad},v1=${bad},v1=${good},v2=zz`;
    expect(verifySignature(BODY, header, SECRET, { now: NOW }).ok).toBe(true);
    expect(verifySignature(BODY, `v1=${good}, t=${NOW}`, SECRET, { now: NOW }).ok).toBe(true);
    expect(verifySignature(BODY, `t=${NOW},v0=${good}`, SECRET, { now: NOW })).toMatchObject({
      reason: 'no_signature',
    });
  });

  it('refuses timestamps beyond the tolerance, in the past and in the future', () => {
    const old = signatureHeader(SECRET, BODY, NOW - 301);
    const ahead = signatureHeader(SECRET, BODY, NOW + 301);
    expect(verifySignature(BODY, old, SECRET, { now: NOW })).toMatchObject({ ok: false, reason: 'too_old' });
    expect(verifySignature(BODY, ahead, SECRET, { now: NOW })).toMatchObject({
      ok: false,
      reason: 'too_new',
    });
    expect(verifySignature(BODY, signatureHeader(SECRET, BODY, NOW - 300), SECRET, { now: NOW }).ok).toBe(
      true,
    );
    expect(verifySignature(BODY, old, SECRET, { now: NOW, toleranceS: 400 }).ok).toBe(true);
  });

  it('names what is wrong with a missing or malformed header', () => {
    expect(verifySignature(BODY, undefined, SECRET)).toMatchObject({ reason: 'missing' });
    expect(verifySignature(BODY, '  ', SECRET)).toMatchObject({ reason: 'missing' });
    for (const header of ['garbage', 'v1=abc', 't=abc,v1=00', `t=${NOW},t=${NOW},v1=00`, 't=1=2,,x']) {
      expect(verifySignature(BODY, header, SECRET, { now: NOW })).toMatchObject({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(parseSignatureHeader(`t=${NOW},v1=${'A'.repeat(64)}`)).toEqual({ timestamp: NOW, v1: [] });
  });
});

describe('against Stripe’s implementation of the same scheme', () => {
  it('verifies a header made by stripe.webhooks.generateTestHeaderString', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp });
    expect(verifySignature(BODY, header, SECRET)).toEqual({ ok: true, timestamp });
    expect(verifySignature(BODY, header, 'whsec_wrong').ok).toBe(false);
  });

  it('makes headers that stripe.webhooks.constructEvent accepts, and Stripe refuses a tampered body', () => {
    const header = signatureHeader(SECRET, BODY);
    const event = stripe.webhooks.constructEvent(BODY, header, SECRET) as unknown as { id: string };
    expect(event.id).toBe('evt_1');
    expect(() => stripe.webhooks.constructEvent(BODY.replace('active', 'paused'), header, SECRET)).toThrow(
      /signature/i,
    );
  });

  it('agrees with Stripe on non-ASCII bodies, byte for byte', () => {
    const body = '{"id":"evt_2","note":"café – 東京 ✓"}';
    const header = signatureHeader(SECRET, Buffer.from(body, 'utf8'));
    expect(() => stripe.webhooks.constructEvent(Buffer.from(body, 'utf8'), header, SECRET)).not.toThrow();
    const theirs = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    expect(verifySignature(Buffer.from(body, 'utf8'), theirs, SECRET).ok).toBe(true);
  });
});

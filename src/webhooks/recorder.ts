// --record FILE: one NDJSON line per delivery, appended as it arrives, with its headers and
// its raw body (as text when it is valid UTF-8, else base64), so that replay sends the same bytes.
// A delivery whose signature was verified carries `verified_digest`, an HMAC of its body under
// the signing secret: replay re-signs a record only when that digest still matches (it was
// verified, and nobody changed the body since), and a file made elsewhere cannot forge one.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isRecord } from '../domain/records.js';

export interface DeliveryRecord {
  received_at: string;
  delivery_id: string | null;
  method: string;
  path: string;
  verified: boolean;
  /** Only when verified: recordDigest(secret, body). */
  verified_digest?: string;
  duplicate: boolean;
  /** Sent by `webhooks trigger` with no state change behind it. */
  synthetic?: boolean;
  /** A replay from the inspector: its body was edited (re-signed only when the original was verified). */
  edited?: boolean;
  /** As received, names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body?: string;
  body_base64?: string;
}

const DIGEST_PREFIX = 'hmac-sha256:';

/** The digest of a verified body, keyed with the signing secret that verified it. */
export function recordDigest(secret: string, body: Buffer): string {
  const mac = createHmac('sha256', secret).update('billing webhooks record v1\n').update(body);
  return `${DIGEST_PREFIX}${mac.digest('hex')}`;
}

/** True when the record was verified when recorded and its body is unchanged since (under this secret). */
export function isVerifiedUnchanged(record: DeliveryRecord, secret: string): boolean {
  if (record.verified !== true || typeof record.verified_digest !== 'string') return false;
  const want = Buffer.from(recordDigest(secret, decodeBody(record)));
  const got = Buffer.from(record.verified_digest);
  return want.length === got.length && timingSafeEqual(want, got);
}

export function encodeBody(body: Buffer): Pick<DeliveryRecord, 'body' | 'body_base64'> {
  const text = body.toString('utf8');
  return Buffer.from(text, 'utf8').equals(body) ? { body: text } : { body_base64: body.toString('base64') };
}

export function decodeBody(record: Pick<DeliveryRecord, 'body' | 'body_base64'>): Buffer {
  if (typeof record.body_base64 === 'string') return Buffer.from(record.body_base64, 'base64');
  return Buffer.from(record.body ?? '', 'utf8');
}

export class Recorder {
  private readonly stream: WriteStream;
  private failure: Error | undefined;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path, { flags: 'a', mode: 0o600 });
    this.stream.on('error', (err) => {
      this.failure = err;
    });
  }

  /** Resolves once the file is open, so that a bad path fails at start, not at the first event. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.stream.once('ready', () => resolve());
      this.stream.once('error', reject);
    });
  }

  append(record: DeliveryRecord): void {
    if (!this.failure) this.stream.write(`${JSON.stringify(record)}\n`);
  }

  get error(): Error | undefined {
    return this.failure;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}

/** The records of a file written by --record, with their line numbers; a line that is not a record is an error with its number. */
export async function readRecords(path: string): Promise<Array<DeliveryRecord & { line: number }>> {
  const text = await readFile(path, 'utf8');
  const records: Array<DeliveryRecord & { line: number }> = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new RecordFileError(`line ${index + 1} is not JSON`);
    }
    if (!isDeliveryRecord(parsed)) throw new RecordFileError(`line ${index + 1} is not a recorded delivery`);
    records.push({ ...parsed, line: index + 1 });
  }
  return records;
}

export class RecordFileError extends Error {
  override name = 'RecordFileError';
}

function isDeliveryRecord(value: unknown): value is DeliveryRecord {
  if (!isRecord(value)) return false;
  const r = value;
  return isRecord(r.headers) && (typeof r.body === 'string' || typeof r.body_base64 === 'string');
}

// The dates a user may type in a date flag, and the forms the service's routes take.
// Accepted: ISO 8601 (2027-01-31, 2027-01-31T09:00, 2027-01-31T09:00:00.000Z, with or
// without a zone; no zone means UTC; a space may stand for the T) and the service's own
// day-first DD/MM/YYYY HH:MM (or DD/MM/YYYY). Every value is checked to be a real day and time.

export interface ParsedDate {
  /** The instant, in UTC. */
  date: Date;
  /** Whether a time of day was written; a day alone means midnight UTC. */
  hasTime: boolean;
}

export const DATE_EXAMPLES = '2027-01-31, 2027-01-31T09:00, 2027-01-31T09:00+02:00 or "31/01/2027 09:00"';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const DAY_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/;

/** The date a user typed, or undefined when it is not one of the accepted forms or not a real date. */
export function parseDate(value: string): ParsedDate | undefined {
  const text = value.trim();
  const iso = ISO.exec(text);
  if (iso) {
    const [, y, mo, d, h, mi, s, ms, zone] = iso;
    return build(
      { year: +y!, month: +mo!, day: +d!, hour: +(h ?? 0), minute: +(mi ?? 0), second: +(s ?? 0) },
      Number((ms ?? '0').padEnd(3, '0')),
      zone,
      h !== undefined,
    );
  }
  const dayFirst = DAY_FIRST.exec(text);
  if (dayFirst) {
    const [, d, mo, y, h, mi] = dayFirst;
    return build(
      { year: +y!, month: +mo!, day: +d!, hour: +(h ?? 0), minute: +(mi ?? 0), second: 0 },
      0,
      undefined,
      h !== undefined,
    );
  }
  return undefined;
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function build(f: Fields, ms: number, zone: string | undefined, hasTime: boolean): ParsedDate | undefined {
  if (f.month < 1 || f.month > 12 || f.day < 1 || f.hour > 23 || f.minute > 59 || f.second > 59) {
    return undefined;
  }
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, ms);
  const check = new Date(wall);
  // 31/02 rolls over to March in Date.UTC; a real day does not.
  if (check.getUTCDate() !== f.day || check.getUTCMonth() !== f.month - 1) return undefined;
  const offset = zoneOffsetMinutes(zone);
  if (offset === undefined) return undefined;
  return { date: new Date(wall - offset * 60_000), hasTime };
}

function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!match) return undefined;
  const [, sign, hh, mm] = match;
  if (+hh! > 23 || +mm! > 59) return undefined;
  return (sign === '-' ? -1 : 1) * (+hh! * 60 + +mm!);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The subscription route's start_date: day first, "DD/MM/YYYY HH:MM", in UTC. */
export function toDayFirst(date: Date): string {
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** "YYYY-MM-DD" (UTC) for a day alone, or the full ISO 8601 UTC time when a time was given. */
export function toDayOrIso(parsed: ParsedDate): string {
  return parsed.hasTime ? parsed.date.toISOString() : parsed.date.toISOString().slice(0, 10);
}

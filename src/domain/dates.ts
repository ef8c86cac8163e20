// The dates a user may type in a date flag, and the forms the service's routes take.
// Accepted: ISO 8601 (2027-01-31, 2027-01-31T09:00, 2027-01-31T09:00:00.000Z, with or
// without a zone; no zone means UTC; a space may stand for the T) and the service's own
// day-first DD/MM/YYYY HH:MM (or DD/MM/YYYY), and what people say (./relative below): today,
// yesterday, a weekday, this-month, 7d. Every value is checked to be a real day and time.

export interface ParsedDate {
  /** The instant, in UTC: a period's start. */
  date: Date;
  /** Whether a time of day was written; a day alone means midnight UTC. */
  hasTime: boolean;
  /**
   * Where the period it names ends (exclusive): a day alone its next midnight, a week, a
   * month or a year named its next one. Absent for an instant (a time, 7d). --until and
   * --during take it: `--until last-month` is the end of last month.
   */
  end?: Date;
}

export const DATE_EXAMPLES =
  '2027-01-31, 2027-01-31T09:00, 2027-01-31T09:00+02:00, "31/01/2027 09:00", today, monday or 7d';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const DAY_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/;

/** The date a user typed, or undefined when it is not one of the accepted forms or not a real date. */
export function parseDate(value: string, now: Date = new Date()): ParsedDate | undefined {
  const text = value.trim();
  const said = relativeDate(text, now);
  if (said) return said;
  const month = /^(\d{4})-(\d{2})$/.exec(text);
  if (month) {
    const [y, m] = [Number(month[1]), Number(month[2])];
    if (m < 1 || m > 12) return undefined;
    return period(Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1));
  }
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
  const date = new Date(wall - offset * 60_000);
  return hasTime ? { date, hasTime } : { date, hasTime, end: new Date(date.getTime() + DAY_MS) };
}

/** A period from `start` to `end` (exclusive), both midnight UTC. */
function period(start: number, end: number): ParsedDate {
  return { date: new Date(start), hasTime: false, end: new Date(end) };
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

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAY_MS = 86_400_000;

/**
 * A date as people say it, in UTC as of `now`, and the period it names. A day word is that day
 * (midnight UTC to the next); a weekday is the latest one on or before today, so `monday` is
 * this week's Monday (weeks start on Monday, ISO 8601); this-week, last-week, this-month,
 * last-month, this-year, last-year and a month's name (`october`, `oct`: the latest October
 * that has begun) are the whole week, month or year; `7d`, `2w`, `12h` are that long before
 * now, to the minute (an instant, no period).
 */
function relativeDate(text: string, now: Date): ParsedDate | undefined {
  const word = text.toLowerCase().replace(/[\s_]+/g, '-');
  const [year, month] = [now.getUTCFullYear(), now.getUTCMonth()];
  const today = Date.UTC(year, month, now.getUTCDate());
  const day = (ms: number): ParsedDate => period(ms, ms + DAY_MS);
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  switch (word) {
    case 'today':
      return day(today);
    case 'yesterday':
      return day(today - DAY_MS);
    case 'this-week':
      return period(monday, monday + 7 * DAY_MS);
    case 'last-week':
      return period(monday - 7 * DAY_MS, monday);
    case 'this-month':
      return period(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1));
    case 'last-month':
      return period(Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1));
    case 'this-year':
      return period(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    case 'last-year':
      return period(Date.UTC(year - 1, 0, 1), Date.UTC(year, 0, 1));
  }
  const weekday = WEEKDAYS.findIndex((w) => w === word || (word.length >= 3 && w.startsWith(word)));
  if (weekday >= 0) return day(today - ((now.getUTCDay() - weekday + 7) % 7) * DAY_MS);
  const named = MONTHS.findIndex((m) => m === word || (word.length >= 3 && m.startsWith(word)));
  if (named >= 0) {
    const y = named <= month ? year : year - 1;
    return period(Date.UTC(y, named, 1), Date.UTC(y, named + 1, 1));
  }
  const ago = /^(\d{1,4})\s*([hdw])$/.exec(word);
  if (ago) {
    const unit = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS }[ago[2] as 'h' | 'd' | 'w'];
    return { date: new Date(now.getTime() - Number(ago[1]) * unit), hasTime: true };
  }
  return undefined;
}

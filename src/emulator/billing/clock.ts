// Durations of `billing emulator clock advance` and POST /__emulator/clock {advance}:
// one or more of <n><unit>, e.g. 45d, 12h, 1y2mo. Units: y (12 calendar months), mo
// (calendar months, under the month-end rule: 31 Jan + 1mo = 28 or 29 Feb), w, d, h,
// m (minutes), s.

import { addMonths } from '../model/schedule.js';

const FIXED_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };
const PART = /(\d+)(mo|y|w|d|h|m|s)/g;
export const DURATION_HELP = 'a duration like 45d, 12h, 30m, 2w, 3mo or 1y (combined: 1y2mo)';

/** The time `text` after `fromMs`; null when `text` is not a duration. */
export function addDuration(fromMs: number, text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+(mo|y|w|d|h|m|s))+$/.test(trimmed)) return null;
  let months = 0;
  let ms = 0;
  for (const [, count, unit] of trimmed.matchAll(PART)) {
    const n = Number(count);
    if (unit === 'y') months += 12 * n;
    else if (unit === 'mo') months += n;
    else ms += n * (FIXED_MS[unit ?? ''] ?? 0);
  }
  const moved = months > 0 ? addMonths(fromMs, months) : fromMs;
  const result = moved + ms;
  return Number.isFinite(result) && result <= 8.64e15 ? result : null;
}

/** What relativeTime says for a missing or unparseable date. */
export const UNKNOWN_TIME = 'at an unknown time';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/**
 * How long ago a date was, in words: 'just now', '5 minutes ago', '2 hours ago', '3 days ago',
 * '2 months ago', '1 year ago'. Dates in the future (clock skew) read 'just now'; a missing or
 * invalid date reads 'at an unknown time'. `now` is a parameter so the rule stays pure.
 */
export function relativeTime(date: Date | string | number | null | undefined, now: Date | number = Date.now()): string {
  if (date === null || date === undefined || date === '') return UNKNOWN_TIME;
  const then = date instanceof Date ? date.getTime() : new Date(date).getTime();
  const current = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(then) || !Number.isFinite(current)) return UNKNOWN_TIME;
  const elapsed = current - then;
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return plural(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return plural(Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < MONTH) return plural(Math.floor(elapsed / DAY), 'day');
  if (elapsed < YEAR) return plural(Math.floor(elapsed / MONTH), 'month');
  return plural(Math.floor(elapsed / YEAR), 'year');
}

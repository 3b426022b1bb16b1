import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

// The one place TypeScript computes with calendar dates. A calendar date is a `YYYY-MM-DD` string
// that is already local: which zone a moment falls on which day in is PostgreSQL's job
// (`AT TIME ZONE`), so everything here is done in UTC, where a day is always 24 hours and no
// daylight-saving change moves a date. Built on dayjs with its UTC plugin.
//
// Two functions stay plain arithmetic on purpose: `dayNumber` (and `daysBetween`, built on it) and
// `oneYearAfter` run once per ledger event or per match in the gains matchers, and a dayjs object
// per call costs about 30 times as much (parsing and formatting, measured on 200,000 days: 0.2 µs
// against 7.5 µs). test/normalize/calendarDate.test.ts checks that they agree with dayjs for every
// day of several years, leap days included.

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * True when `text` is a real calendar date written `YYYY-MM-DD` (not 2025-02-30, not 2025-2-3).
 *
 * @example
 * isCalendarDate('2024-02-29'); // true
 * isCalendarDate('2025-02-29'); // false
 */
export function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  // dayjs rolls an impossible day over into the next month, and reads years 0000-0099 as 19xx: a
  // date is real when it reads back as written.
  const d = dayjs.utc(text);
  return d.isValid() && d.format('YYYY-MM-DD') === text;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why a text in the form `YYYY-MM-DD` is not a calendar date, in words; undefined when it is one,
 * is not in that form, or its day is not the trouble. For the messages of every date a user types.
 *
 * @example
 * calendarDateProblem('2025-02-30'); // 'February 2025 has no day 30 (it has 28)'
 * calendarDateProblem('2025-13-01'); // 'there is no month 13'
 */
export function calendarDateProblem(text: string): string | undefined {
  if (!DATE.test(text) || isCalendarDate(text)) return undefined;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12) return `there is no month ${month}`;
  const days = daysInMonth(year, month);
  return day < 1 || day > days ? `${MONTHS[month - 1]} ${year} has no day ${day} (it has ${days})` : undefined;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The days of a month (1-12) of the Gregorian calendar, plain arithmetic (it runs once per line
 * of an import).
 *
 * @example
 * daysInMonth(2024, 2); // 29
 */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

/**
 * The date `days` calendar days after `day` (before it when negative).
 *
 * @example
 * addDays('2024-02-28', 1); // '2024-02-29'
 * addDays('2025-12-31', 31); // '2026-01-31'
 */
export function addDays(day: string, days: number): string {
  return dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');
}

/**
 * The same day `years` years on; 29 February becomes 28 February in a year without one.
 *
 * @example
 * addYears('2024-02-29', 1); // '2025-02-28'
 */
export function addYears(day: string, years: number): string {
  return dayjs.utc(day).add(years, 'year').format('YYYY-MM-DD');
}

/**
 * The first day of `day`'s year.
 *
 * @example
 * startOfYear('2025-07-14'); // '2025-01-01'
 */
export function startOfYear(day: string): string {
  return dayjs.utc(day).startOf('year').format('YYYY-MM-DD');
}

/**
 * The year that starts on `monthDay` (MM-DD) of `year`: its first day and the first day after it.
 *
 * @example
 * yearStarting(2025, '04-06'); // { from: '2025-04-06', to: '2026-04-06' }
 * yearStarting(2025); // { from: '2025-01-01', to: '2026-01-01' }
 */
export function yearStarting(year: number, monthDay = '01-01'): { from: string; to: string } {
  return { from: `${year}-${monthDay}`, to: `${year + 1}-${monthDay}` };
}

/**
 * The UTC calendar date of a moment in Unix milliseconds.
 *
 * @example
 * utcDate(Date.UTC(2025, 0, 3, 23, 59)); // '2025-01-03'
 */
export function utcDate(ms: number): string {
  return dayjs.utc(ms).format('YYYY-MM-DD');
}

/**
 * The UTC year of a moment in Unix milliseconds.
 *
 * @example
 * utcYear(Date.UTC(2025, 11, 31, 23, 59)); // 2025
 */
export function utcYear(ms: number): number {
  return dayjs.utc(ms).year();
}

/**
 * Midnight starting `day` plus `minutes`, as a local timestamp `YYYY-MM-DD HH:mm:ss` (no zone: the
 * form PostgreSQL reads as a `timestamp` before `AT TIME ZONE`).
 *
 * @example
 * localTimestamp('2025-01-31', 1440); // '2025-02-01 00:00:00'
 */
export function localTimestamp(day: string, minutes: number): string {
  return dayjs.utc(day).add(minutes, 'minute').format('YYYY-MM-DD HH:mm:ss');
}

/**
 * Days since 1970-01-01 of a calendar date: the day counts of the 30-day rules, compared as
 * numbers. Plain arithmetic, not dayjs (see the top of this file): it runs once per ledger event.
 *
 * @example
 * dayNumber('2025-04-30') - dayNumber('2025-03-31'); // 30
 */
export function dayNumber(day: string): number {
  return Math.floor(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS);
}

/**
 * Calendar days from `earlier` to `later` (negative when `later` comes first).
 *
 * @example
 * daysBetween('2024-02-28', '2024-03-01'); // 2
 */
export function daysBetween(earlier: string, later: string): number {
  return dayNumber(later) - dayNumber(earlier);
}

/**
 * `addYears(day, 1)` as string arithmetic (see the top of this file): it runs once per match.
 * 29 February's anniversary is 28 February.
 *
 * @example
 * oneYearAfter('2024-02-29'); // '2025-02-28'
 */
export function oneYearAfter(day: string): string {
  const md = day.slice(5);
  return `${String(Number(day.slice(0, 4)) + 1).padStart(4, '0')}-${md === '02-29' ? '02-28' : md}`;
}

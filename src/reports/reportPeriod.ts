import { TradeledgerError } from '../errors.js';
import { fieldWords } from '../fieldWords.js';
import { addDays, calendarDateProblem, isCalendarDate, yearStarting } from '../normalize/calendarDate.js';
import { timeZone } from '../normalize/timeZone.js';

/** The period a report covers: local dates in `tz`, `from` inclusive, `to` exclusive. */
export interface ReportPeriod {
  /** YYYY-MM-DD, the first day included. */
  from: string;
  /** YYYY-MM-DD, the first day no longer included. */
  to: string;
  /** IANA zone the dates are in; year boundaries fall at midnight there. */
  tz: string;
  /** Folder name: the year, or `from_to`. */
  label: string;
}

/** Flags as the CLI receives them. */
export interface ReportPeriodInput {
  year?: string;
  from?: string;
  to?: string;
  tz?: string;
}

/**
 * Checks and normalises the period flags: `--year YYYY`, or `--from` and `--to` (dates, `--to`
 * exclusive), plus an IANA `--tz` (default UTC). Bad input throws a config error naming the fix,
 * in the CLI's flags or (`words` 'form') the portal's form fields, as parseGainsRequest does.
 *
 * @example
 * reportPeriod({ year: '2025', tz: 'Asia/Tokyo' });
 * // { from: '2025-01-01', to: '2026-01-01', tz: 'Asia/Tokyo', label: '2025' }
 */
export function reportPeriod(input: ReportPeriodInput, words: 'cli' | 'form' = 'cli'): ReportPeriod {
  const cli = words === 'cli';
  const { name, example } = fieldWords(cli);
  const tz = timeZone(input.tz ?? 'UTC', 'REPORT_BAD_FLAG', name('tz'));
  if (input.year !== undefined) {
    if (input.from !== undefined || input.to !== undefined) {
      throw bad(`${name('year')} cannot be combined with ${cli ? '--from/--to' : 'from/to'}`,
        cli ? 'Give either --year 2025, or --from 2025-01-01 --to 2026-01-01.' : 'Give either a tax year or a from and to date.');
    }
    if (!/^\d{4}$/.test(input.year)) {
      throw bad(`${name('year')} "${input.year}" is not a four-digit year`, `Write the tax year as four digits, e.g. ${example('year', '2025')}.`);
    }
    // Four digits but out of range (before any crypto-exchange history, or a typo such as 1025 or
    // 3025): said as such, not "not a four-digit year" as before.
    const year = Number(input.year);
    if (year < 2000 || year > 2999) {
      throw bad(`${name('year')} "${input.year}" is not from 2000 to 2999`,
        `Give a year from 2000 to 2999, e.g. ${example('year', '2025')} (or ${cli ? '--from/--to' : 'from and to dates'} for any dates).`);
    }
    return { ...yearStarting(year), tz, label: String(year) };
  }
  if (input.from === undefined || input.to === undefined) {
    throw bad('no period given', cli ? 'Give --year 2025, or both --from 2025-01-01 and --to 2026-01-01 (--to is exclusive).'
      : 'Give a tax year, or both a from and a to date (to is not included).');
  }
  const from = checkDate(name('from'), example('from', '2025-01-01'), input.from);
  const to = checkDate(name('to'), example('to', '2026-01-01'), input.to);
  if (to <= from) {
    throw bad(`${name('to')} ${to} is not after ${name('from')} ${from}`, cli
      ? '--to is exclusive: to cover all of 2025 use --from 2025-01-01 --to 2026-01-01.'
      : 'The to date is not included: to cover all of 2025, from 2025-01-01 to 2026-01-01.');
  }
  return { from, to, tz, label: `${from}_${to}` };
}

/**
 * A warning for a `--to` that looks like the last day wanted rather than the first day not
 * included: the last day of a month (`--to 2025-12-31`, which leaves 31 December out of "2025")
 * or 5 April, the last day of a UK tax year (`--from 2025-04-06 --to 2026-04-05` leaves that day
 * out; Income Tax Act 2007 s. 4(3): "A tax year begins on 6 April and ends on the following 5
 * April", https://www.legislation.gov.uk/ukpga/2007/3/section/4). `--to` is exclusive everywhere (the flag's help, the portal's "to (not included)"), and
 * the files come out without error either way, so a period one day short would go unnoticed.
 * Undefined for every other end (and for `--year`, whose end is 1 January). `form` words it for
 * the portal's form fields instead of the CLI's flags.
 *
 * @example
 * lastDayLeftOut({ from: '2025-01-01', to: '2025-12-31', tz: 'UTC', label: '2025-01-01_2025-12-31' });
 * // '--to 2025-12-31 is the first day NOT included, so 2025-12-31 itself is left out; to include it, give --to 2026-01-01'
 */
export function lastDayLeftOut(period: ReportPeriod, words: 'cli' | 'form' = 'cli'): string | undefined {
  const next = addDays(period.to, 1);
  const monthEnd = next.endsWith('-01');
  const ukYearEnd = period.to.endsWith('-04-05');
  if (!monthEnd && !ukYearEnd) return undefined;
  const ukFrom = `${Number(period.to.slice(0, 4)) - 1}-04-06`;
  if (words === 'form') {
    const ukYear = ukYearEnd ? ` (a UK tax year runs from 6 April to 5 April: from ${ukFrom} to ${next})` : '';
    return `The end date ${period.to} is the first day not included, so ${period.to} itself is left out of these files; to include it, set "to" to ${next}${ukYear}.`;
  }
  const ukYear = ukYearEnd ? ` (a UK tax year runs from 6 April to 5 April: --from ${ukFrom} --to ${next})` : '';
  return `--to ${period.to} is the first day NOT included, so ${period.to} itself is left out; to include it, give --to ${next}${ukYear}`;
}

function checkDate(field: string, example: string, value: string): string {
  if (!isCalendarDate(value)) {
    const why = calendarDateProblem(value);
    throw bad(`${field} "${value}" is not a date${why === undefined ? '' : `: ${why}`}`, `Write ${field} as YYYY-MM-DD, e.g. ${example}.`);
  }
  return value;
}

function bad(message: string, hint: string): TradeledgerError {
  return new TradeledgerError('REPORT_BAD_FLAG', message, { kind: 'config', hint });
}

import { badInput, type FilePlace } from './badInput.js';
import { csvRows } from './csvRows.js';
import { decimalField } from './decimalField.js';
import { isCurrencyCode } from './currencyCodes.js';
import { calendarDateProblem, isCalendarDate, utcDate } from '../normalize/calendarDate.js';

/** One ECB reference rate: units of `currency` per 1 EUR on `day`, from line `line`. */
export interface EcbRate {
  readonly currency: string;
  readonly day: string;
  readonly perEur: string;
  readonly line: number;
}

/** Where the ECB publishes its euro reference rates: "Time series", CSV (.zip), is eurofxref-hist.zip. */
export const ECB_RATES_PAGE = 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html';

const HINT = 'Use the ECB file as downloaded (eurofxref-hist.csv): Date, then one column per currency, rates per EUR, N/A where there is none.';

/**
 * Reads the European Central Bank's euro reference rates CSV (the eurofxref-hist.csv layout:
 * `Date,USD,JPY,...` with one line per day, newest first, rates as units per EUR and `N/A` for
 * none; source https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html).
 * The whole file is checked before anything is returned: an unknown currency column, a bad or
 * future date, a repeated day, a negative or malformed rate is refused naming line and column.
 *
 * @example
 * const rates = ecbRates('eurofxref-hist.csv', 'Date,USD,GBP,\n2025-01-03,1.0299,0.83608,\n', new Date());
 * // [{ currency: 'USD', day: '2025-01-03', perEur: '1.0299', line: 2 }, { currency: 'GBP', ... }]
 */
export function ecbRates(file: string, text: string, now: Date): EcbRate[] {
  const { header, rows } = csvRows(file, text);
  if (header[0]?.replace(/^\uFEFF/, '') !== 'Date') {
    throw badInput({ file, line: 1, column: { index: 1, name: header[0] ?? '' } }, `the first column is '${header[0] ?? ''}', not 'Date'`, HINT);
  }
  // The ECB file ends every line with a comma: a last, empty column is part of the layout.
  const width = header.at(-1) === '' ? header.length - 1 : header.length;
  const currencies: string[] = [];
  for (let c = 1; c < width; c++) {
    const code = header[c]!;
    if (!isCurrencyCode(code)) throw badInput({ file, line: 1, column: { index: c + 1, name: code } }, `unknown currency '${code}'`, 'Column names must be ISO 4217 currency codes (USD, GBP, JPY ...).');
    if (currencies.includes(code)) throw badInput({ file, line: 1, column: { index: c + 1, name: code } }, `currency ${code} appears twice`, HINT);
    currencies.push(code);
  }
  const today = utcDate(now.getTime());
  const seen = new Map<string, number>();
  const out: EcbRate[] = [];
  for (const row of rows) {
    const fields = row.fields.length === width + 1 && row.fields.at(-1) === '' ? row.fields.slice(0, width) : row.fields;
    if (fields.length !== width) throw badInput({ file, line: row.line }, `${fields.length} fields where the header has ${width}`, HINT);
    const day = fields[0]!;
    const place = { file, line: row.line, column: { index: 1, name: 'Date' } };
    if (!isDay(day)) {
      // "27 November 2026": a date written out, as in the ECB's one-day file of current rates
      // (eurofxref.zip) rather than its history (eurofxref-hist.zip), which this reads.
      const writtenOut = /^\d{1,2} [A-Za-z]+ \d{4}$/.test(day.trim());
      const why = calendarDateProblem(day);
      throw badInput(place, why === undefined ? `'${day}' is not a date (YYYY-MM-DD)` : `'${day}' is not a date: ${why}`, writtenOut
        ? `This looks like the ECB's file of one day's rates (eurofxref.zip); import its history instead: eurofxref-hist.zip ("Time series") on ${ECB_RATES_PAGE}, which holds every day since 1999.`
        : HINT);
    }
    if (day > today) throw badInput(place, `${day} is in the future`, 'Check the date; ECB rates exist only for past days.');
    const earlier = seen.get(day);
    if (earlier !== undefined) throw badInput(place, `${day} is listed twice (also line ${earlier})`, 'Keep one line per day.');
    seen.set(day, row.line);
    for (let c = 1; c < width; c++) {
      const v = fields[c]!;
      if (v === 'N/A' || v === '') continue;
      out.push({ currency: currencies[c - 1]!, day, perEur: positive(v, { file, line: row.line, column: { index: c + 1, name: currencies[c - 1]! } }), line: row.line });
    }
  }
  return out;
}

function positive(v: string, place: FilePlace): string {
  const d = decimalField(v, place, 'ECB rates are units of the currency per 1 EUR, always positive; N/A where there is none.');
  if (/^0(\.0*)?$/.test(d)) throw badInput(place, 'a rate of 0', 'ECB rates are positive; write N/A where there is none.');
  return d;
}

function isDay(s: string): boolean {
  // Before 1970 is no ECB rate (they start in 1999), and year 0000 no date PostgreSQL stores.
  return isCalendarDate(s) && s >= '1970-01-01';
}

import { badInput, shown, type FilePlace } from './badInput.js';
import { csvRows, type CsvRow } from './csvRows.js';
import { decimalField } from './decimalField.js';
import { isCurrencyCode } from './currencyCodes.js';
import { calendarDateProblem, daysInMonth } from '../normalize/calendarDate.js';

/** One transaction of a Koinly universal CSV, checked and typed (amounts exact, as text). */
export interface KoinlyTransaction {
  readonly line: number;
  /** ISO 8601, UTC. */
  readonly ts: string;
  readonly sentAmount: string | null;
  readonly sentCurrency: string | null;
  readonly receivedAmount: string | null;
  readonly receivedCurrency: string | null;
  readonly feeAmount: string | null;
  readonly feeCurrency: string | null;
  readonly netWorthAmount: string | null;
  readonly netWorthCurrency: string | null;
  readonly label: string | null;
  readonly description: string | null;
  readonly txHash: string | null;
  /** The line's fields by header name, as in the file: the JSON text of imported_transactions.raw. */
  readonly rawJson: string;
}

// The universal template's columns (Koinly, "How to create a custom CSV file with your data":
// https://support.koinly.io/en/articles/9489976-how-to-create-a-custom-csv-file-with-your-data).
// Dates are UTC ("YYYY-MM-DD HH:mm UTC"); amounts are positive, the column says the direction.
const columns = {
  date: ['date', 'koinly date'],
  sentAmount: ['sent amount'], sentCurrency: ['sent currency'],
  receivedAmount: ['received amount'], receivedCurrency: ['received currency'],
  feeAmount: ['fee amount'], feeCurrency: ['fee currency'],
  netWorthAmount: ['net worth amount'], netWorthCurrency: ['net worth currency'],
  label: ['label', 'tag'], description: ['description'], txHash: ['txhash', 'tx hash'],
} as const;
type Field = keyof typeof columns;

const HINT = 'Use the Koinly universal CSV layout: Date (YYYY-MM-DD HH:mm UTC), Sent Amount, Sent Currency, Received Amount, Received Currency, Fee Amount, Fee Currency, Net Worth Amount, Net Worth Currency, Label, Description, TxHash.';
const TICKER = /^\$?[A-Z0-9]{1,20}$/;

/**
 * Reads a Koinly universal CSV held in memory (small files and tests; `tradeledger import`
 * streams through {@link koinlyLineReader}). The whole file is checked before anything is
 * returned; a line repeated word for word is refused naming both lines.
 *
 * @example
 * koinlyTransactions('coinbase.csv', 'Date,Received Amount,Received Currency\n2024-05-01 10:00 UTC,0.5,BTC\n', new Date());
 */
export function koinlyTransactions(file: string, text: string, now: Date): KoinlyTransaction[] {
  const { header, rows } = csvRows(file, text);
  const read = koinlyLineReader(file, header, now);
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const key = row.fields.join('\u0000');
    const earlier = seen.get(key);
    if (earlier !== undefined) throw badInput({ file, line: row.line }, `the same transaction as line ${earlier}`, SAME_LINE_HINT);
    seen.set(key, row.line);
    return read(row);
  });
}

/** What to do about a line that repeats another word for word. */
export const SAME_LINE_HINT = 'Remove the duplicate line (or make the two lines differ, e.g. by TxHash or Description, if both really happened).';

/**
 * Checks a Koinly universal CSV's header line and returns the checker of its data lines: a
 * missing Date column, a line with more or fewer fields than the header, a bad, too early or
 * future date, a negative, malformed or absurdly long amount, an amount without its currency,
 * an unknown currency: each is refused naming line and column. A zero Sent, Received or Fee
 * Amount (Koinly's exports write them) means no such side.
 *
 * @example
 * const read = koinlyLineReader('k.csv', header, new Date()); const tx = read({ line: 2, fields });
 */
export function koinlyLineReader(file: string, header: readonly string[], now: Date): (row: CsvRow) => KoinlyTransaction {
  const at = new Map<Field, number>();
  header.forEach((h, i) => {
    const name = h.trim().toLowerCase();
    for (const [field, names] of Object.entries(columns) as [Field, readonly string[]][]) {
      if (names.includes(name)) at.set(field, i);
    }
  });
  // A spreadsheet saved in a locale whose list separator is ';' (or a tab) gives one column that
  // holds the whole header: say so, rather than only that Date is missing.
  const other = header.length === 1 ? [';', '\t'].find((sep) => header[0]!.split(sep).some((h) => (columns.date as readonly string[]).includes(h.trim().toLowerCase()))) : undefined;
  if (other !== undefined) {
    throw badInput({ file, line: 1 }, `the columns are separated by ${other === ';' ? 'semicolons' : 'tabs'}, not commas`,
      `Save the file as CSV with commas between the columns (in a spreadsheet: CSV UTF-8, comma-delimited) and decimal points, not commas, in amounts. ${HINT}`);
  }
  if (!at.has('date')) throw badInput({ file, line: 1 }, 'no Date column', HINT);
  if (!at.has('sentAmount') && !at.has('receivedAmount')) throw badInput({ file, line: 1 }, 'neither a Sent Amount nor a Received Amount column', HINT);
  const width = header.length;
  const rawJson = rawJsonWriter(header);
  return (row) => {
    if (row.fields.length !== width) {
      if (row.fields.length > width) {
        throw badInput({ file, line: row.line, column: { index: width + 1, name: 'after the last column' } },
          `an extra field ${shown(row.fields[width]!)}: the line has ${row.fields.length} fields where the header has ${width}`,
          'Put a field that contains a comma in double quotes ("Paid, thanks"), or remove the extra field; nothing is shifted or dropped silently.');
      }
      throw badInput({ file, line: row.line }, `${row.fields.length} fields where the header has ${width}`, `Give every line all ${width} fields of the header (empty ones as nothing between two commas).`);
    }
    const get = (f: Field): string => { const i = at.get(f); return i === undefined ? '' : (row.fields[i] ?? '').trim(); };
    const place = (f: Field): FilePlace => ({ file, line: row.line, column: { index: (at.get(f) ?? 0) + 1, name: header[at.get(f) ?? 0] ?? f } });
    const ts = utcTime(get('date'), () => place('date'), now);
    const pair = (amount: Field, currency: Field, fiat: boolean): [string | null, string | null] => {
      const a = get(amount);
      const c = get(currency).toUpperCase();
      if (a === '' && c === '') return [null, null];
      if (a === '') throw badInput(place(amount), `${header[at.get(currency)!]} ${c.length > 40 ? shown(c) : c} without an amount`, HINT);
      const value = decimalField(a, () => place(amount), 'Amounts are positive; the column (Sent or Received) gives the direction.');
      // Koinly writes 0 for a side a transaction does not have (Fee Amount 0, Received Amount 0):
      // no such side, whatever the currency says. A Net Worth of 0 is a value, kept.
      if (value === '0' && !fiat) {
        if (c !== '' && !TICKER.test(c)) throw badInput(place(currency), `unknown currency ${shown(get(currency))}`, 'Use the coin\'s ticker (BTC, ETH, USDT ...).');
        return [null, null];
      }
      if (c === '') throw badInput(place(currency), `${header[at.get(amount)!]} ${a.length > 40 ? shown(a) : a} without a currency`, HINT);
      if (fiat ? !isCurrencyCode(c) : !TICKER.test(c)) {
        throw badInput(place(currency), `unknown currency ${shown(get(currency))}`, fiat ? 'Net Worth Currency must be an ISO 4217 code (USD, EUR, GBP ...).' : 'Use the coin\'s ticker (BTC, ETH, USDT ...).');
      }
      return [value, c];
    };
    const [sentAmount, sentCurrency] = pair('sentAmount', 'sentCurrency', false);
    const [receivedAmount, receivedCurrency] = pair('receivedAmount', 'receivedCurrency', false);
    const [feeAmount, feeCurrency] = pair('feeAmount', 'feeCurrency', false);
    const [netWorthAmount, netWorthCurrency] = pair('netWorthAmount', 'netWorthCurrency', true);
    if (sentAmount === null && receivedAmount === null) throw badInput(place('date'), 'neither a sent nor a received amount', HINT);
    return {
      line: row.line, ts, sentAmount, sentCurrency, receivedAmount, receivedCurrency, feeAmount, feeCurrency,
      netWorthAmount, netWorthCurrency, label: get('label') || null, description: get('description') || null, txHash: get('txHash') || null, rawJson: rawJson(row.fields),
    };
  };
}

// No ledger holds a transaction before 1970 (year 0000 is not even a date PostgreSQL stores).
const EARLIEST = Date.UTC(1970, 0, 1);

// "2024-05-01 10:00 UTC" (Koinly's form), with optional seconds, or ISO 8601 with Z.
function utcTime(v: string, place: () => FilePlace, now: Date): string {
  const fast = koinlyMinute(v);
  if (fast !== null && fast.ms <= now.getTime()) return fast.iso;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?( ?UTC|Z)?$/.exec(v);
  const iso = m ? `${m[1]}T${m[2]}${m[3] ?? ':00'}Z` : '';
  const d = new Date(iso);
  // The moment's own UTC date must be the one written (2025-02-30 or 24:00 roll over): read from
  // toISOString(), which this function returns anyway (a dayjs format per line cost ~10% of an import).
  const out = Number.isNaN(d.getTime()) ? '' : d.toISOString();
  if (m && out.slice(0, 10) !== m[1]) {
    // The form is right but the calendar is not (30 February, 31 April, hour 24): say which part.
    const problem = calendarDateProblem(m[1]!) ?? `${m[2]}${m[3] ?? ''} is not a time of day (00:00 to 23:59)`;
    throw badInput(place(), `${shown(v)} is not a date and time: ${problem}`, 'Check the date in the source this file came from; write dates in UTC as YYYY-MM-DD HH:mm UTC.');
  }
  if (!m) {
    throw badInput(place(), `${shown(v)} is not a date and time (YYYY-MM-DD HH:mm UTC)`, 'Write dates in UTC as YYYY-MM-DD HH:mm UTC.');
  }
  if (d.getTime() < EARLIEST) throw badInput(place(), `${v} is before 1970`, 'Check the date: it must be a real transaction time in UTC (YYYY-MM-DD HH:mm UTC).');
  if (d.getTime() > now.getTime()) throw badInput(place(), `${v} is in the future`, 'Check the date; it must be in UTC and not later than now.');
  return out;
}


/**
 * Koinly's own form, "YYYY-MM-DD HH:mm UTC", read without a RegExp and a Date per line (issue
 * 24): its ISO text as toISOString() writes it and its epoch milliseconds, or null for anything
 * else (other forms, a day or time out of range, before 1970), which utcTime reads the slow way
 * and refuses with its message.
 */
function koinlyMinute(v: string): { iso: string; ms: number } | null {
  if (v.length !== 20 || v.charCodeAt(4) !== 0x2d || v.charCodeAt(7) !== 0x2d || v.charCodeAt(10) !== 0x20 || v.charCodeAt(13) !== 0x3a
    || v.charCodeAt(16) !== 0x20 || v.charCodeAt(17) !== 0x55 || v.charCodeAt(18) !== 0x54 || v.charCodeAt(19) !== 0x43) return null;
  const year = digits(v, 0, 4);
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  const hour = digits(v, 11, 2);
  const minute = digits(v, 14, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  if (day > daysInMonth(year, month)) return null;
  return { iso: `${v.slice(0, 10)}T${v.slice(11, 16)}:00.000Z`, ms: Date.UTC(year, month - 1, day, hour, minute) };
}

/** The number written by `n` decimal digits of v from `at`, or -1 if one is not a digit. */
function digits(v: string, at: number, n: number): number {
  let x = 0;
  for (let i = at; i < at + n; i++) {
    const d = v.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    x = x * 10 + d;
  }
  return x;
}

// Field values that JSON writes between two double quotes as they are.
const JSON_PLAIN = /^[^"\\\u0000-\u001f]*$/;

/**
 * Writes a line's fields by header name as the JSON text JSON.stringify gives of the object
 * { [header]: field } (imported_transactions.raw), without building the object: the key parts
 * once per file, each value quoted as it is unless it needs escaping. A header that names a
 * column twice or names __proto__ is written through the object, as before, so the stored
 * jsonb is the same either way.
 */
function rawJsonWriter(header: readonly string[]): (fields: readonly string[]) => string {
  if (new Set(header).size !== header.length || header.includes('__proto__')) {
    return (fields) => {
      const raw: Record<string, string> = {};
      header.forEach((h, i) => { raw[h] = fields[i]!; });
      return JSON.stringify(raw);
    };
  }
  const keys = header.map((h, i) => `${i === 0 ? '{' : ','}${JSON.stringify(h)}:`);
  if (keys.length === 0) return () => '{}';
  return (fields) => {
    let out = '';
    for (let i = 0; i < keys.length; i++) {
      const v = fields[i]!;
      out += keys[i]! + (JSON_PLAIN.test(v) ? `"${v}"` : JSON.stringify(v));
    }
    return `${out}}`;
  };
}

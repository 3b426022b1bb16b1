import { badInput, type FilePlace } from './badInput.js';
import { csvRows } from './csvRows.js';
import { decimalField } from './decimalField.js';
import { isCurrencyCode } from './currencyCodes.js';

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
  /** The line's fields by header name, as in the file. */
  readonly raw: Record<string, string>;
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
 * Reads a Koinly universal CSV. The whole file is checked before anything is returned: a
 * missing Date column, a bad or future date, a negative or malformed amount, an amount without
 * its currency, an unknown currency, a line repeated word for word: each is refused naming line
 * and column.
 *
 * @example
 * koinlyTransactions('coinbase.csv', 'Date,Received Amount,Received Currency\n2024-05-01 10:00 UTC,0.5,BTC\n', new Date());
 */
export function koinlyTransactions(file: string, text: string, now: Date): KoinlyTransaction[] {
  const { header, rows } = csvRows(file, text);
  const at = new Map<Field, number>();
  header.forEach((h, i) => {
    const name = h.trim().toLowerCase();
    for (const [field, names] of Object.entries(columns) as [Field, readonly string[]][]) {
      if (names.includes(name)) at.set(field, i);
    }
  });
  if (!at.has('date')) throw badInput({ file, line: 1 }, 'no Date column', HINT);
  if (!at.has('sentAmount') && !at.has('receivedAmount')) throw badInput({ file, line: 1 }, 'neither a Sent Amount nor a Received Amount column', HINT);
  const seen = new Map<string, number>();
  const out: KoinlyTransaction[] = [];
  for (const row of rows) {
    const key = row.fields.join('\u0000');
    const earlier = seen.get(key);
    if (earlier !== undefined) throw badInput({ file, line: row.line }, `the same transaction as line ${earlier}`, 'Remove the duplicate line (or make the two lines differ, e.g. by TxHash or Description, if both really happened).');
    seen.set(key, row.line);
    const get = (f: Field): string => { const i = at.get(f); return i === undefined ? '' : (row.fields[i] ?? '').trim(); };
    const place = (f: Field): FilePlace => ({ file, line: row.line, column: { index: (at.get(f) ?? 0) + 1, name: header[at.get(f) ?? 0] ?? f } });
    const ts = utcTime(get('date'), place('date'), now);
    const pair = (amount: Field, currency: Field, fiat: boolean): [string | null, string | null] => {
      const a = get(amount);
      const c = get(currency).toUpperCase();
      if (a === '' && c === '') return [null, null];
      if (a === '') throw badInput(place(amount), `${header[at.get(currency)!]} ${c} without an amount`, HINT);
      if (c === '') throw badInput(place(currency), `${header[at.get(amount)!]} ${a} without a currency`, HINT);
      const value = decimalField(a, place(amount), 'Amounts are positive; the column (Sent or Received) gives the direction.');
      if (fiat ? !isCurrencyCode(c) : !TICKER.test(c)) {
        throw badInput(place(currency), `unknown currency '${get(currency)}'`, fiat ? 'Net Worth Currency must be an ISO 4217 code (USD, EUR, GBP ...).' : 'Use the coin\'s ticker (BTC, ETH, USDT ...).');
      }
      return [value, c];
    };
    const [sentAmount, sentCurrency] = pair('sentAmount', 'sentCurrency', false);
    const [receivedAmount, receivedCurrency] = pair('receivedAmount', 'receivedCurrency', false);
    const [feeAmount, feeCurrency] = pair('feeAmount', 'feeCurrency', false);
    const [netWorthAmount, netWorthCurrency] = pair('netWorthAmount', 'netWorthCurrency', true);
    if (sentAmount === null && receivedAmount === null) throw badInput(place('date'), 'neither a sent nor a received amount', HINT);
    const raw: Record<string, string> = {};
    header.forEach((h, i) => { raw[h] = row.fields[i] ?? ''; });
    out.push({
      line: row.line, ts, sentAmount, sentCurrency, receivedAmount, receivedCurrency, feeAmount, feeCurrency,
      netWorthAmount, netWorthCurrency, label: get('label') || null, description: get('description') || null, txHash: get('txHash') || null, raw,
    });
  }
  return out;
}

// "2024-05-01 10:00 UTC" (Koinly's form), with optional seconds, or ISO 8601 with Z.
function utcTime(v: string, place: FilePlace, now: Date): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?( ?UTC|Z)?$/.exec(v);
  const iso = m ? `${m[1]}T${m[2]}${m[3] ?? ':00'}Z` : '';
  const d = new Date(iso);
  if (!m || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== m[1]) {
    throw badInput(place, `'${v}' is not a date and time (YYYY-MM-DD HH:mm UTC)`, 'Write dates in UTC as YYYY-MM-DD HH:mm UTC.');
  }
  if (d.getTime() > now.getTime()) throw badInput(place, `${v} is in the future`, 'Check the date; it must be in UTC and not later than now.');
  return d.toISOString();
}

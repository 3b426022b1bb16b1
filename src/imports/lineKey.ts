import * as crypto from 'node:crypto';
import type { KoinlyTransaction } from './koinlyTransactions.js';

/**
 * An imported line's identity within its wallet (imported_transactions.line_key), computed in
 * the importer: the same text as SQL's imported_line_key() (sql/schema/functions/imported_line_key.sql)
 * gives for the stored row, so keys stored by earlier versions still match. That function hashes
 * json_build_array() of the fields as text: epoch milliseconds, amounts in their shortest form
 * (trim_scale; decimalField already writes them so), currencies, label, description, TxHash,
 * with NULL as `null`, elements joined by ", ". JSON.stringify escapes a string as PostgreSQL's
 * escape_json does for text that holds no NUL and no lone surrogate (fileText refuses both):
 * `"` `\` \b \f \n \r \t by name, other control characters as \u00xx, everything else as is.
 * test/imports/lineKey.test.ts compares the two on awkward lines.
 *
 * @example
 * lineKey(tx); // '9f2c…' (64 hex digits)
 */
export function lineKey(t: KoinlyTransaction): string {
  const text = `["${Date.parse(t.ts)}", ${q(t.sentAmount)}, ${q(t.sentCurrency)}, ${q(t.receivedAmount)}, ${q(t.receivedCurrency)}, ${
    q(t.feeAmount)}, ${q(t.feeCurrency)}, ${q(t.netWorthAmount)}, ${q(t.netWorthCurrency)}, ${s(t.label)}, ${s(t.description)}, ${s(t.txHash)}]`;
  return sha256Hex(text);
}

// crypto.hash (Node 20.12+) hashes a string in one call, without a Hash object per line.
const sha256Hex: (text: string) => string = typeof (crypto as { hash?: unknown }).hash === 'function'
  ? (text) => (crypto as unknown as { hash(alg: string, data: string, enc: 'hex'): string }).hash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

// Amounts and currencies are checked to be digits and tickers (koinlyLineReader): quoted as they
// are. Free text goes through JSON.stringify when it holds a character JSON escapes.
function q(v: string | null): string {
  return v === null ? 'null' : `"${v}"`;
}

const PLAIN = /^[^"\\\u0000-\u001f]*$/;
function s(v: string | null): string {
  if (v === null) return 'null';
  return PLAIN.test(v) ? `"${v}"` : JSON.stringify(v);
}

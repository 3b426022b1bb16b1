import { isNumberText } from './isNumberText.js';

export interface ExchangeTime {
  ok: true;
  /** Unix milliseconds as decimal digits (seconds input is scaled by 1000). */
  ms: string;
  date: Date;
  /** What the wire carried, so a loader can record it (api-notes: docs show seconds, real responses ms). */
  unit: 'ms' | 's';
}

export interface TimeProblem {
  ok: false;
  problem: string;
}

/**
 * Reads an exchange timestamp: 13-digit Unix milliseconds or 10-digit Unix seconds, as a string
 * (or a lossless-json number, or a safe integer). Empty, null or absent gives null; anything else
 * comes back as a problem rather than a throw.
 *
 * @example
 * parseExchangeTime('1700000000123'); // { ok: true, ms: '1700000000123', unit: 'ms', date: ... }
 * parseExchangeTime('1700000000');    // { ok: true, ms: '1700000000000', unit: 's', date: ... }
 * parseExchangeTime('');              // null
 */
export function parseExchangeTime(text: unknown): ExchangeTime | TimeProblem | null {
  if (text === undefined || text === null) return null;
  let digits: string;
  if (typeof text === 'string') digits = text.trim();
  else if (typeof text === 'number' && Number.isSafeInteger(text)) digits = String(text);
  else if (typeof text === 'bigint') digits = text.toString();
  else if (isNumberText(text)) digits = text.value;
  else return { ok: false, problem: `expected a Unix timestamp, got ${typeof text}` };
  if (digits === '') return null;
  if (!/^\d+$/.test(digits)) return { ok: false, problem: `not a Unix timestamp: ${JSON.stringify(digits.slice(0, 40))}` };
  const unit = digits.length === 13 ? 'ms' : digits.length === 10 ? 's' : null;
  if (unit === null) {
    return { ok: false, problem: `timestamp ${digits.slice(0, 40)} has ${digits.length} digits; expected 13 (milliseconds) or 10 (seconds)` };
  }
  const ms = unit === 'ms' ? digits : `${digits}000`;
  return { ok: true, ms, date: new Date(Number(ms)), unit };
}

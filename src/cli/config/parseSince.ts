import { TradeledgerError } from '../../errors.js';

/**
 * Reads a --since value: a date (YYYY-MM-DD, taken as UTC midnight), a full ISO time, or Unix
 * milliseconds. Returns Unix ms.
 *
 * @example
 * parseSince('2024-01-01', '--since') // 1704067200000
 */
export function parseSince(text: string, where: string): number {
  const t = text.trim();
  let ms: number;
  if (/^\d{13}$/.test(t)) ms = Number(t);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(t)) ms = Date.parse(`${t}T00:00:00Z`);
  else ms = /\d{4}-\d{2}-\d{2}T/.test(t) ? Date.parse(t) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new TradeledgerError('CONFIG_INVALID', `${where}: "${text}" is not a date`, { kind: 'config', hint: 'write it as YYYY-MM-DD (UTC), an ISO time such as 2024-01-01T00:00:00Z, or Unix milliseconds' });
  }
  if (ms > Date.now()) {
    throw new TradeledgerError('CONFIG_INVALID', `${where}: ${text} is in the future`, { kind: 'config', hint: 'give a date in the past' });
  }
  return ms;
}

import { TradeledgerError } from '../errors.js';

/**
 * The one check of a `--tz` (or the portal's `tz` field), shared by `report` and `gains`: an IANA
 * zone name in any case, returned in its canonical spelling (`europe/london` -> `Europe/London`),
 * which PostgreSQL also knows. Intl decides, before any database is touched; the runners still
 * turn a zone the database refuses into the same command's error. An unknown name throws a config
 * error with the caller's `code` (REPORT_BAD_FLAG, GAINS_BAD_FLAG).
 *
 * @example
 * timeZone('europe/london', 'GAINS_BAD_FLAG'); // 'Europe/London'
 * timeZone('Mars/Olympus', 'REPORT_BAD_FLAG'); // throws: --tz "Mars/Olympus" is not a known time zone
 */
export function timeZone(tz: string, code: string, field = '--tz'): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new TradeledgerError(code, `${field} "${tz}" is not a known time zone`, {
      kind: 'config', hint: 'Use an IANA zone name such as UTC, Europe/Berlin or Asia/Tokyo.',
    });
  }
}

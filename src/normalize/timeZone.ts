import { TradeledgerError } from '../errors.js';

/**
 * The one check of a `--tz` (or the portal's `tz` field), shared by `report` and `gains`: an IANA
 * zone name in any case, returned in its canonical spelling (`europe/london` -> `Europe/London`),
 * which PostgreSQL also knows. Intl decides, before any database is touched; the runners still
 * turn a zone the database refuses into the same command's error. An unknown name throws a config
 * error with the caller's `code` (REPORT_BAD_FLAG, GAINS_BAD_FLAG).
 *
 * A UTC offset (`+01:00`) is refused too, though Node 22 and later take it as a zone (ECMA-402's
 * offset time zones; Node 20 refuses it): PostgreSQL reads the same text as a POSIX zone, whose
 * sign is the other way round ("POSIX-style time zone specifications ... positive offsets are used
 * for locations west of Greenwich", https://www.postgresql.org/docs/15/datetime-posix-timezone-specs.html),
 * so `AT TIME ZONE '+01:00'` is UTC-1 there: 00:30 UTC on 1 January fell in the year before, in
 * the files' dates and the tax year, while Node's local times said UTC+1.
 *
 * @example
 * timeZone('europe/london', 'GAINS_BAD_FLAG'); // 'Europe/London'
 * timeZone('Mars/Olympus', 'REPORT_BAD_FLAG'); // throws: --tz "Mars/Olympus" is not a known time zone
 */
export function timeZone(tz: string, code: string, field = '--tz'): string {
  const offset = () => new TradeledgerError(code, `${field} "${tz}" is a UTC offset, not a time zone: PostgreSQL would read it with the opposite sign, and an offset knows no summer time`, {
    kind: 'config', hint: 'Use your place\'s IANA zone name, e.g. Europe/Berlin for +01:00 (or UTC).',
  });
  // (Said the same on every Node: Node 20's Intl refuses '+01:00' as unknown, 22's takes it.)
  if (/^[+-]\d/.test(tz.trim())) throw offset();
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new TradeledgerError(code, `${field} "${tz}" is not a known time zone`, {
      kind: 'config', hint: 'Use an IANA zone name such as UTC, Europe/Berlin or Asia/Tokyo.',
    });
  }
  if (/^[+-]/.test(canonical)) throw offset();
  return canonical;
}

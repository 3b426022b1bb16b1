import { describe, expect, inject, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseGainsRequest } from '../../src/gains/gainsRequest.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { failure } from '../support/failure.js';
import pg from 'pg';

// `report --tz` and `gains --tz` (and the portal's gains form) go through one check
// (src/normalize/timeZone.ts): the same spellings in, the same canonical zone out, the same refusals.
const good: [string, string][] = [
  ['UTC', 'UTC'], ['utc', 'UTC'], ['Europe/London', 'Europe/London'], ['europe/london', 'Europe/London'], ['EUROPE/LONDON', 'Europe/London'],
  ['America/New_York', 'America/New_York'], ['america/new_york', 'America/New_York'], ['asia/tokyo', 'Asia/Tokyo'], ['Etc/GMT+5', 'Etc/GMT+5'],
];
const bad = ['Mars/Olympus', 'Europe/Londn', 'London', 'GMT+25', 'Europe/London '];

async function stderrOf(args: string[]): Promise<{ code: number; stderr: string }> {
  const writes: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { writes.push(String(chunk)); return true; });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await main(args), stderr: writes.join('') };
  } finally {
    spy.mockRestore();
    out.mockRestore();
  }
}

describe('one time-zone check for report and gains', () => {
  it('accepts the same spellings, in any case, and both take the canonical name', () => {
    for (const [tz, canonical] of good) {
      expect(reportPeriod({ year: '2025', tz }).tz, tz).toBe(canonical);
      for (const rules of ['uk', 'us', 'fifo'] as const) {
        expect(parseGainsRequest({ rules, year: '2025', fiat: 'gbp', tz }, 'cli').request.tz, `${rules} ${tz}`).toBe(canonical);
        expect(parseGainsRequest({ rules, year: '2025', fiat: 'gbp', tz }, 'portal').request.tz, `${rules} ${tz} (portal)`).toBe(canonical);
      }
    }
    expect(parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'GBP', tz: 'europe/london' }, 'cli').zoneNote).toBe('dates counted in Europe/London (--tz)');
  });

  it('refuses the same names with the same message, each under its command\'s code', () => {
    for (const tz of bad) {
      const report = failure(() => reportPeriod({ year: '2025', tz }));
      const gains = failure(() => parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'GBP', tz }, 'cli'));
      expect([report.code, report.kind], tz).toEqual(['REPORT_BAD_FLAG', 'config']);
      expect([gains.code, gains.kind], tz).toEqual(['GAINS_BAD_FLAG', 'config']);
      expect(gains.message, tz).toBe(report.message);
      expect(gains.message, tz).toBe(`--tz "${tz}" is not a known time zone`);
      expect(gains.hint, tz).toBe(report.hint);
      // The portal's form names its field.
      expect(failure(() => parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'GBP', tz }, 'portal')).message).toBe(`tz "${tz}" is not a known time zone`);
    }
  });

  // Node 22 and later take '+01:00' as a zone (ECMA-402 offset time zones); PostgreSQL reads the
  // same text as a POSIX zone, sign reversed ("positive offsets are used for locations west of
  // Greenwich", https://www.postgresql.org/docs/15/datetime-posix-timezone-specs.html): the
  // files' dates and the tax year were counted in UTC-1 for a user who asked for UTC+1.
  it('refuses a UTC offset on every Node, naming why, and PostgreSQL indeed reads one the other way round', async () => {
    for (const tz of ['+01:00', '-05:00', '+0530', '+01']) {
      const report = failure(() => reportPeriod({ year: '2025', tz }));
      const gains = failure(() => parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'GBP', tz }, 'cli'));
      expect([report.code, gains.code], tz).toEqual(['REPORT_BAD_FLAG', 'GAINS_BAD_FLAG']);
      for (const e of [report, gains]) {
        expect(e.message, tz).toBe(`--tz "${tz}" is a UTC offset, not a time zone: PostgreSQL would read it with the opposite sign, and an offset knows no summer time`);
        expect(e.hint).toBe('Use your place\'s IANA zone name, e.g. Europe/Berlin for +01:00 (or UTC).');
      }
      expect(failure(() => reportPeriod({ year: '2025', tz }, 'form')).message).toMatch(new RegExp(`^tz "\\${tz}" is a UTC offset`));
    }
    // The premise, on this project's server: 00:30 UTC on 1 January at '+01:00' is 23:30 the day before.
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT (timestamptz '2025-01-01 00:30:00+00' AT TIME ZONE '+01:00')::text AS local`);
      expect(rows[0].local).toBe('2024-12-31 23:30:00');
    } finally {
      await client.end();
    }
  });

  it('both commands exit 2 with the same line for a bad zone, before touching a database', async () => {
    for (const tz of ['Nowhere/City', 'europe/londn']) {
      const report = await stderrOf(['report', '--year', '2025', '--tz', tz]);
      const gains = await stderrOf(['gains', '--year', '2025', '--rules', 'uk', '--fiat', 'GBP', '--tz', tz]);
      expect(report).toEqual({ code: 2, stderr: `tradeledger: --tz "${tz}" is not a known time zone\n  fix: Use an IANA zone name such as UTC, Europe/Berlin or Asia/Tokyo.\n` });
      expect(gains).toEqual(report);
    }
  });
});

// --fiat: an ISO 4217 code in any case. "XYZ" wrote a whole report (or gains run) of empty values
// and told the user to import ECB rates that the ECB does not publish.
describe('--fiat of report and gains', () => {
  it('refuses a code that is no currency, exit 2, before touching a database', async () => {
    // No database at this address: a command that opened one would fail with another code.
    const env = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    try {
      for (const fiat of ['XYZ', 'btc', 'euro']) {
        const report = await stderrOf(['report', '--year', '2025', '--fiat', fiat]);
        expect(report, fiat).toEqual({ code: 2, stderr: `tradeledger: --fiat ${fiat} is not an ISO 4217 currency code\n  fix: Use an ISO 4217 code: USD, EUR, GBP, JPY ... (values other than USD need \`tradeledger import fx\`).\n` });
        const gains = await stderrOf(['gains', '--year', '2025', '--rules', 'uk', '--fiat', fiat]);
        expect(gains.code, fiat).toBe(2);
        expect(gains.stderr, fiat).toContain(`--fiat "${fiat}" is not an ISO 4217 currency code`);
      }
    } finally {
      if (env === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = env;
    }
  });
});

import { describe, expect, it, vi } from 'vitest';
import { lastDayLeftOut, reportPeriod } from '../../src/reports/reportPeriod.js';
import { bindNamedParameters } from '../../src/reports/bindNamedParameters.js';
import { main } from '../../src/cli/main.js';
import { failure } from '../support/failure.js';

describe('report period flags', () => {
  it('turns --year into a local-date range with an exclusive end', () => {
    expect(reportPeriod({ year: '2025', tz: 'Asia/Tokyo' })).toEqual({ from: '2025-01-01', to: '2026-01-01', tz: 'Asia/Tokyo', label: '2025' });
    expect(reportPeriod({ from: '2025-04-06', to: '2026-04-06', tz: 'europe/london' }))
      .toEqual({ from: '2025-04-06', to: '2026-04-06', tz: 'Europe/London', label: '2025-04-06_2026-04-06' });
  });

  it('rejects bad input with a message and a fix', () => {
    const zone = failure(() => reportPeriod({ year: '2025', tz: 'Mars/Olympus' }));
    expect([zone.kind, zone.message, zone.hint]).toEqual(['config', '--tz "Mars/Olympus" is not a known time zone',
      'Use an IANA zone name such as UTC, Europe/Berlin or Asia/Tokyo.']);
    expect(failure(() => reportPeriod({ year: '25' })).message).toBe('--year "25" is not a four-digit year');
    // four digits, but out of range: not called "not a four-digit year"
    expect(failure(() => reportPeriod({ year: '1999' })).message).toBe('--year "1999" is not from 2000 to 2999');
    expect(failure(() => reportPeriod({ year: '3025' })).message).toBe('--year "3025" is not from 2000 to 2999');
    expect(reportPeriod({ year: '2999' }).from).toBe('2999-01-01');
    expect(failure(() => reportPeriod({ from: '2025-02-30', to: '2025-03-01' })).message).toBe('--from "2025-02-30" is not a date: February 2025 has no day 30 (it has 28)');
    expect(failure(() => reportPeriod({ from: '2025-03-01', to: '2025-03-01' })).hint).toContain('--to is exclusive');
    expect(failure(() => reportPeriod({})).hint).toContain('--year 2025');
    expect(failure(() => reportPeriod({ year: '2025', from: '2025-01-01' })).message).toBe('--year cannot be combined with --from/--to');
  });

  it('words the same mistakes in the portal form\'s fields, not the CLI\'s flags', () => {
    const form = (input: Parameters<typeof reportPeriod>[0]) => failure(() => reportPeriod(input, 'form'));
    expect([form({ year: '25' }).message, form({ year: '25' }).hint]).toEqual(['year "25" is not a four-digit year', 'Write the tax year as four digits, e.g. 2025.']);
    expect(form({ year: '1999' }).hint).toBe('Give a year from 2000 to 2999, e.g. 2025 (or from and to dates for any dates).');
    expect([form({ from: '2025-02-30', to: '2025-03-01' }).message, form({ from: '2025-02-30', to: '2025-03-01' }).hint])
      .toEqual(['from "2025-02-30" is not a date: February 2025 has no day 30 (it has 28)', 'Write from as YYYY-MM-DD, e.g. 2025-01-01.']);
    expect(form({ from: '2025-03-01', to: '2025-03-01' }).message).toBe('to 2025-03-01 is not after from 2025-03-01');
    expect(form({ year: '2025', tz: 'Mars/Olympus' }).message).toBe('tz "Mars/Olympus" is not a known time zone');
    expect(form({}).hint).toBe('Give a tax year, or both a from and a to date (to is not included).');
    for (const input of [{ year: '25' }, { year: '1999' }, { from: 'x', to: '2025-01-01' }, { from: '2025-03-01', to: '2025-03-01' }, {}, { year: '2025', tz: 'x/y' }]) {
      const e = form(input);
      expect(`${e.message} ${e.hint}`).not.toMatch(/--/);
    }
  });

  it('exits with the config code and a readable line for a bad zone, before touching a database', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { writes.push(String(chunk)); return true; });
    try {
      expect(await main(['report', '--year', '2025', '--tz', 'Nowhere/City'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(writes.join('')).toBe('tradeledger: --tz "Nowhere/City" is not a known time zone\n  fix: Use an IANA zone name such as UTC, Europe/Berlin or Asia/Tokyo.\n');
  });
});

describe('lastDayLeftOut', () => {
  const range = (from: string, to: string) => reportPeriod({ from, to });
  it('warns of an end that is the last day of a month or of a UK tax year, in CLI or form words', () => {
    expect(lastDayLeftOut(range('2024-01-01', '2024-02-29'))).toBe('--to 2024-02-29 is the first day NOT included, so 2024-02-29 itself is left out; to include it, give --to 2024-03-01');
    expect(lastDayLeftOut(range('2025-07-01', '2026-06-30'))).toContain('give --to 2026-07-01');
    expect(lastDayLeftOut(range('2025-04-06', '2026-04-05'), 'form')).toBe('The end date 2026-04-05 is the first day not included, so 2026-04-05 itself is left out of these files; to include it, set "to" to 2026-04-06 (a UK tax year runs from 6 April to 5 April: from 2025-04-06 to 2026-04-06).');
  });
  // Income Tax Act 2007 s. 4 (https://www.legislation.gov.uk/ukpga/2007/3/section/4): "(3) A tax
  // year begins on 6 April and ends on the following 5 April. (4) 'The tax year 2007-08' means the
  // tax year beginning on 6 April 2007". So 2007-08 ends on 5 April 2008, a day --to must not stop at.
  it('the statute\'s own example, the tax year 2007-08: --to 2008-04-05 leaves its last day out, --to 2008-04-06 does not', () => {
    expect(lastDayLeftOut(range('2007-04-06', '2008-04-05'))).toBe('--to 2008-04-05 is the first day NOT included, so 2008-04-05 itself is left out; to include it, give --to 2008-04-06 (a UK tax year runs from 6 April to 5 April: --from 2007-04-06 --to 2008-04-06)');
    expect(lastDayLeftOut(range('2007-04-06', '2008-04-06'))).toBeUndefined();
  });
  it('says nothing of a first day of a month, of 6 April, of a day inside a month, or of --year', () => {
    for (const [from, to] of [['2025-01-01', '2026-01-01'], ['2025-04-06', '2026-04-06'], ['2025-03-01', '2025-03-15'], ['2024-02-01', '2024-02-28']]) {
      expect(lastDayLeftOut(range(from!, to!)), `${from}..${to}`).toBeUndefined();
    }
    expect(lastDayLeftOut(reportPeriod({ year: '2025' }))).toBeUndefined();
  });
});

describe('bindNamedParameters', () => {
  it('binds psql-style :\'name\' variables as text parameters, reusing positions, ignoring comments', () => {
    const bound = bindNamedParameters("-- uses :'unused'\nSELECT :'a', :'b', :'a' WHERE x = ':''b';\n", { a: '1', b: "it's" });
    expect(bound).toEqual({ text: "SELECT $1::text, $2::text, $1::text WHERE x = ':''b'", values: ['1', "it's"] });
  });

  it('names a missing parameter', () => {
    expect(failure(() => bindNamedParameters("SELECT :'account'", {})).message).toBe('the report query needs a parameter named "account"');
  });
});

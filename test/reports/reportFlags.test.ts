import { describe, expect, it, vi } from 'vitest';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
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
    expect(failure(() => reportPeriod({ from: '2025-02-30', to: '2025-03-01' })).message).toBe('--from "2025-02-30" is not a date');
    expect(failure(() => reportPeriod({ from: '2025-03-01', to: '2025-03-01' })).hint).toContain('--to is exclusive');
    expect(failure(() => reportPeriod({})).hint).toContain('--year 2025');
    expect(failure(() => reportPeriod({ year: '2025', from: '2025-01-01' })).message).toBe('--year cannot be combined with --from/--to');
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

describe('bindNamedParameters', () => {
  it('binds psql-style :\'name\' variables as text parameters, reusing positions, ignoring comments', () => {
    const bound = bindNamedParameters("-- uses :'unused'\nSELECT :'a', :'b', :'a' WHERE x = ':''b';\n", { a: '1', b: "it's" });
    expect(bound).toEqual({ text: "SELECT $1::text, $2::text, $1::text WHERE x = ':''b'", values: ['1', "it's"] });
  });

  it('names a missing parameter', () => {
    expect(failure(() => bindNamedParameters("SELECT :'account'", {})).message).toBe('the report query needs a parameter named "account"');
  });
});

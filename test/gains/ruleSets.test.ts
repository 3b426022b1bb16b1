import { describe, expect, it } from 'vitest';
import { failure } from '../support/failure.js';
import { TradeledgerError } from '../../src/errors.js';
import { resolveZone } from '../../src/gains/ruleSets.js';

describe('the zone days are counted in', () => {
  it('defaults to the country\'s one zone, and says so', () => {
    expect(resolveZone('uk', undefined)).toEqual({ tz: 'Europe/London', note: 'dates counted in Europe/London (the default for --rules uk; --tz to change)' });
    expect(resolveZone('de', undefined).tz).toBe('Europe/Berlin');
    expect(resolveZone('fifo', undefined).tz).toBe('UTC');
    expect(resolveZone('uk', 'UTC')).toEqual({ tz: 'UTC', note: 'dates counted in UTC (--tz)' });
  });

  it('asks where the country has several zones (us, ca, au), naming the fix', () => {
    for (const [rules, example] of [['us', 'America/New_York'], ['ca', 'America/Toronto'], ['au', 'Australia/Sydney']] as const) {
      let err: unknown;
      try { resolveZone(rules, undefined); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(TradeledgerError);
      expect((err as TradeledgerError).message).toContain(`--rules ${rules} needs --tz`);
      expect((err as TradeledgerError).hint).toContain(`--tz ${example}`);
      // the example is not named again among the others
      expect((err as TradeledgerError).hint?.split(example).length, (err as TradeledgerError).hint).toBe(2);
    }
    expect(failure(() => resolveZone('au', undefined)).hint)
      .toBe('Add --tz with your zone, e.g. --tz Australia/Sydney (others: Australia/Melbourne, Australia/Brisbane, Australia/Perth).');
    expect(resolveZone('au', 'Australia/Perth').tz).toBe('Australia/Perth');
  });
});

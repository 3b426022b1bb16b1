import { describe, expect, it } from 'vitest';
import { gainsCsvFiles, gainsFiles, gainsLabel, gainsPeriod, parseGainsRequest } from '../../src/gains/gainsRequest.js';
import { poolingByFlag, ruleSet, ruleSetNames } from '../../src/gains/ruleSets.js';
import { gainsDownloadRequest } from '../../src/portal/gainsDownload.js';
import { failure } from '../support/failure.js';

describe('one gains request for the CLI and the portal', () => {
  it('reads the fields into one request, fiat upper case, pools universal unless asked', () => {
    expect(parseGainsRequest({ rules: 'uk', year: '2025', fiat: 'gbp' }, 'cli')).toEqual({
      request: { rules: 'uk', year: 2025, fiat: 'GBP', tz: 'Europe/London', account: '', pools: 'universal', includeDemo: false },
      zoneNote: 'dates counted in Europe/London (the default for --rules uk; --tz to change)',
    });
    expect(parseGainsRequest({ rules: 'de', year: '2024', fiat: 'EUR', account: 'wallet-a', pools: 'wallet', includeDemo: true, tz: 'utc' }, 'portal').request)
      .toEqual({ rules: 'de', year: 2024, fiat: 'EUR', tz: 'UTC', account: 'wallet-a', pools: 'wallet', includeDemo: true });
  });

  it('says the same mistakes in the CLI\'s flags and the form\'s fields, all GAINS_BAD_FLAG', () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ rules: 'nz', year: '2025', fiat: 'GBP' }, '--rules "nz" is not one of uk, us, de, au, ca, fifo, lifo, hifo, average', 'rules "nz" is not one of uk, us, de, au, ca, fifo, lifo, hifo, average'],
      [{ rules: 'uk', year: '25', fiat: 'GBP' }, '--year "25" is not a four-digit year', 'year "25" is not a four-digit year'],
      [{ rules: 'uk', year: '2025', fiat: 'euro' }, '--fiat "euro" is not an ISO 4217 currency code', 'fiat "euro" is not an ISO 4217 currency code'],
      // Three letters that name no currency: the run wrote every file with empty values, and
      // told the user to import ECB rates the ECB does not publish.
      [{ rules: 'uk', year: '2025', fiat: 'XYZ' }, '--fiat "XYZ" is not an ISO 4217 currency code', 'fiat "XYZ" is not an ISO 4217 currency code'],
      [{ rules: 'uk', year: '2025', fiat: 'btc' }, '--fiat "btc" is not an ISO 4217 currency code', 'fiat "btc" is not an ISO 4217 currency code'],
      [{ rules: 'uk', year: '2025', fiat: 'GBP', pools: 'each' }, '--pools "each" is not one of universal, wallet', 'pools "each" is not one of universal, wallet'],
      [{ rules: 'uk', year: '2025', fiat: 'GBP', tz: 'Mars/Olympus' }, '--tz "Mars/Olympus" is not a known time zone', 'tz "Mars/Olympus" is not a known time zone'],
    ];
    for (const [input, cli, portal] of cases) {
      const c = failure(() => parseGainsRequest(input, 'cli'));
      const p = failure(() => parseGainsRequest(input, 'portal'));
      expect([c.code, c.kind, c.message]).toEqual(['GAINS_BAD_FLAG', 'config', cli]);
      expect([p.code, p.kind, p.message]).toEqual(['GAINS_BAD_FLAG', 'config', portal]);
    }
    expect(failure(() => parseGainsRequest({ rules: 'uk', year: '25', fiat: 'GBP' }, 'cli')).hint).toBe('Write the tax year as four digits, e.g. --year 2025.');
    expect(failure(() => parseGainsRequest({ rules: 'uk', year: '25', fiat: 'GBP' }, 'portal')).hint).toBe('Write the tax year as four digits, e.g. 2025.');
  });

  it('without a zone, a country of several zones: the CLI and the portal both ask (the portal counted in UTC before)', () => {
    for (const rules of ['us', 'ca', 'au'] as const) {
      expect(failure(() => parseGainsRequest({ rules, year: '2025', fiat: 'USD' }, 'cli')).message).toContain(`--rules ${rules} needs --tz`);
      for (const tz of [undefined, '']) {
        const p = failure(() => parseGainsRequest({ rules, year: '2025', fiat: 'USD', tz }, 'portal'));
        expect([p.code, p.kind]).toEqual(['GAINS_BAD_FLAG', 'config']);
        expect(p.message).toBe(`the ${rules} rules need a time zone: the country has several, and the day a trade falls on decides holding periods and the tax year`);
        expect(p.hint).toMatch(/^Fill in Time zone with yours, e\.g\. (America|Australia)\//);
      }
      expect(parseGainsRequest({ rules, year: '2025', fiat: 'USD', tz: 'utc' }, 'portal').request.tz).toBe('UTC');
    }
    expect(parseGainsRequest({ rules: 'de', year: '2025', fiat: 'EUR' }, 'portal').request.tz).toBe('Europe/Berlin');
  });

  it('without a fiat, both take the currency of the rules\' return; for the rules of no country the CLI asks, the portal takes USD', () => {
    // `gains --rules uk` without --fiat stopped with '--fiat is required'; the return's currency
    // is the rule set's own (RuleSet.currency, with its authority), so it is the default, said aloud.
    for (const fiat of [undefined, '', ' ']) {
      expect(parseGainsRequest({ rules: 'uk', year: '2025', fiat }, 'cli')).toEqual({
        request: { rules: 'uk', year: 2025, fiat: 'GBP', tz: 'Europe/London', account: '', pools: 'universal', includeDemo: false },
        zoneNote: 'dates counted in Europe/London (the default for --rules uk; --tz to change)',
        fiatNote: 'values in GBP (the uk return\'s currency, the default; --fiat to change)',
      });
    }
    const cli = (rules: string) => parseGainsRequest({ rules, year: '2025', tz: 'America/Chicago' }, 'cli').request.fiat;
    expect(['us', 'de', 'au', 'ca'].map(cli)).toEqual(['USD', 'EUR', 'AUD', 'CAD']);
    for (const rules of ['fifo', 'lifo', 'hifo', 'average']) {
      const f = failure(() => parseGainsRequest({ rules, year: '2025' }, 'cli'));
      expect([f.code, f.kind, f.message]).toEqual(['GAINS_BAD_FLAG', 'config', `--fiat is needed with --rules ${rules}: those rules belong to no country, so no currency is theirs`]);
      expect(f.hint).toBe('Give the currency of every value, e.g. --fiat USD (any other needs `tradeledger import fx`).');
    }
    expect(parseGainsRequest({ rules: 'fifo', year: '2025', fiat: 'eur' }, 'cli').request.fiat).toBe('EUR');
    const portal = (rules: string, fiat?: string) => parseGainsRequest({ rules, year: '2025', fiat }, 'portal').request;
    expect(portal('uk')).toMatchObject({ fiat: 'GBP', tz: 'Europe/London' });
    expect(portal('uk', '')).toMatchObject({ fiat: 'GBP', tz: 'Europe/London' });
    expect(portal('de', '')).toMatchObject({ fiat: 'EUR', tz: 'Europe/Berlin' });
    const zoned = (rules: string) => parseGainsRequest({ rules, year: '2025', fiat: '', tz: 'America/Chicago' }, 'portal').request.fiat;
    expect([zoned('us'), zoned('au'), zoned('ca')]).toEqual(['USD', 'AUD', 'CAD']);
    for (const rules of ['fifo', 'lifo', 'hifo', 'average']) expect(portal(rules, '')).toMatchObject({ fiat: 'USD', tz: 'UTC' });
    // A fiat given is the one used, whatever the rules.
    expect(portal('uk', 'usd').fiat).toBe('USD');
  });

  it('names the folder and its files once, for runGains, the CLI and the portal', () => {
    expect(gainsLabel({ year: 2025, rules: 'uk', fiat: 'gbp' })).toBe('2025-uk-GBP');
    expect(gainsFiles('us')).toEqual(['gains.csv', 'income.csv', 'gains-data-quality.csv', 'form-8949.csv', 'summary.json', 'summary.txt', 'manifest.json']);
    expect(gainsFiles('uk')).toEqual(['gains.csv', 'income.csv', 'gains-data-quality.csv', 'summary.json', 'summary.txt', 'manifest.json']);
    expect(gainsCsvFiles('us').at(-1)).toEqual({ query: 'gains-form-8949', file: 'form-8949.csv' });
    expect(gainsPeriod({ rules: 'au', year: 2025 })).toEqual({ from: '2025-07-01', to: '2026-07-01' });
  });

  it('the portal adds the one file wanted, from the rule set\'s folder', () => {
    expect(gainsDownloadRequest({ rules: 'us', year: '2025', fiat: 'usd', tz: 'america/chicago', file: 'form-8949.csv', include_demo: 'on' }))
      .toMatchObject({ rules: 'us', fiat: 'USD', tz: 'America/Chicago', file: 'form-8949.csv', includeDemo: true });
    expect(gainsDownloadRequest({ rules: 'uk', year: '2025', fiat: 'GBP' }).file).toBe('gains.csv');
    expect(failure(() => gainsDownloadRequest({ rules: 'uk', year: '2025', fiat: 'GBP', file: 'form-8949.csv' })).message)
      .toBe('the uk gains folder has no file "form-8949.csv"');
  });
});

describe('rule sets declare their pooling', () => {
  it('the UK, US and Canadian rules fix their pools; the others take --pools', () => {
    expect(ruleSetNames.filter((r) => ruleSet(r).pooling === 'rules')).toEqual(['uk', 'us', 'ca']);
    expect(poolingByFlag()).toEqual(['de', 'au', 'fifo', 'lifo', 'hifo', 'average']);
  });
});

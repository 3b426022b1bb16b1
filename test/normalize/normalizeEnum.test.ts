import { describe, expect, it } from 'vitest';
import { normalizeEnum, spellingsOf } from '../../src/normalize/normalizeEnum.js';
import { enumSpellings } from '../../src/normalize/enumSpellings.js';
import type { EnumField } from '../../src/normalize/enumSpellings.js';

describe('normalizeEnum: raw spelling -> internal value', () => {
  it.each([
    ['orderStatus', 'partially_fill', 'partially_filled'],
    ['orderStatus', 'partially_filled', 'partially_filled'],
    ['orderStatus', 'canceled', 'cancelled'],
    ['orderStatus', 'cancelled', 'cancelled'],
    ['orderStatus', 'reject', 'rejected'],
    ['side', 'systemRepay-selll', 'systemRepay-sell'],
    ['side', 'Buy', 'buy'],
    ['side', 'Sell', 'sell'],
    ['walletDest', 'internal', 'internal'],
    ['walletDest', 'internal_transfer', 'internal'],
    ['walletStatus', 'fail', 'failed'],
    ['transferStatus', 'Successful', 'success'],
    ['transferStatus', 'Failed', 'failed'],
    ['transferStatus', 'Processing', 'pending'],
    ['planStatus', 'not_trigger', 'live'],
    ['reduceOnly', 'YES', 'yes'],
    ['orderSource', 'Trader_delegate', 'trader_delegate'],
    ['productType', 'susdt-futures', 'SUSDT-FUTURES'],
    ['marginTaxType', 'interest_repay', 'interest_repay'],
    ['enterPointSource', 'API', 'API'],
  ] as [EnumField, string, string][])('%s %s -> %s, keeping the raw text', (field, raw, value) => {
    expect(normalizeEnum(field, raw)).toEqual({ ok: true, value, raw });
  });

  it('is idempotent: an internal value maps to itself', () => {
    for (const field of Object.keys(enumSpellings) as EnumField[]) {
      for (const value of Object.keys(enumSpellings[field])) {
        expect(normalizeEnum(field, value)).toMatchObject({ ok: true, value });
      }
    }
  });

  it('flags an unknown value without throwing, listing the known ones', () => {
    const out = normalizeEnum('transferStatus', 'Moved');
    expect(out).toMatchObject({ ok: false, raw: 'Moved' });
    expect(out?.ok === false && out.problem).toBe('unknown transferStatus "Moved"; known values: success, failed, pending');
    // A value of another field is unknown here: spot `cancelled` is not a transfer status.
    expect(normalizeEnum('transferStatus', 'cancelled')?.ok).toBe(false);
  });

  it.each([[''], [null], [undefined]])('%j is absent -> null', (raw) => {
    expect(normalizeEnum('orderStatus', raw)).toBeNull();
  });
});

describe('spellingsOf: internal value -> raw spellings', () => {
  it('lists every wire spelling of a value', () => {
    expect(spellingsOf('orderStatus', 'cancelled')).toEqual(['cancelled', 'canceled']);
    expect(spellingsOf('side', 'systemRepay-sell')).toEqual(['systemRepay-selll', 'systemRepay-sell']);
    expect(spellingsOf('transferStatus', 'success')).toEqual(['Successful']);
    expect(spellingsOf('walletDest', 'internal')).toEqual(['internal_transfer', 'internal']);
    expect(spellingsOf('planStatus', 'live')).toEqual(['live', 'not_trigger']);
    expect(spellingsOf('orderStatus', 'nope')).toEqual([]);
  });

  it('round-trips: every listed spelling maps back to its value', () => {
    let checked = 0;
    for (const field of Object.keys(enumSpellings) as EnumField[]) {
      for (const value of Object.keys(enumSpellings[field])) {
        for (const raw of spellingsOf(field, value)) {
          expect(normalizeEnum(field, raw)).toEqual({ ok: true, value, raw });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Decimal } from 'decimal.js';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { importFx } from '../../src/imports/importFx.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { memoryFile } from '../support/memoryFile.js';
import { valuationSummary } from '../../src/valuation/valuationSummary.js';

// ECB layout (trailing comma included); 2025-03-01/02 are a weekend without rates.
const ecb = `Date,USD,JPY,GBP,
2025-03-04,1.0625,160.10,0.8300,
2025-03-03,1.0500,N/A,0.8250,
2025-02-28,1.0400,158.00,0.8200,
`;
const koinly = `Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash
2025-03-03 09:00 UTC,2500,USDC,1,ETH,0.001,ETH,2400,GBP,,bought elsewhere,0xabc
2025-03-03 11:00 UTC,,,0.5,BTC,,,,,,opening balance,
`;

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(`
    INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, price_avg, size, amount, c_time, raw) VALUES
      ('A', 'f1', 'o1', 'BTCUSDT', 'buy', 50000, 0.1, 5000, '2025-03-03 10:15Z', '{}'),
      ('A', 'f2', 'o2', 'ETHBTC', 'sell', 0.05, 2, 0.1, '2025-03-03 10:20Z', '{}'),
      ('A', 'f3', 'o3', 'BTCEUR', 'sell', 40000, 0.01, 400, '2025-03-04 10:20Z', '{}');
    INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time) VALUES
      ('A', 'spot_fills', 'f1', 0, 'BTC', 0.0001, 'new', '2025-03-03 10:15Z'),
      ('A', 'spot_fills', 'f1', 1, 'BGB', 0.5, 'new', '2025-03-03 10:15Z');
    INSERT INTO deposits (account_uid, order_id, trade_id, coin, status, size, c_time, raw) VALUES
      ('A', 'd1', 'h1', 'USDC', 'success', 100, '2025-03-03 10:30Z', '{}'),
      ('A', 'd2', 'h2', 'USDT', 'success', 200, '2025-03-01 12:00Z', '{}'),
      ('A', 'd3', 'h3', 'EUR', 'success', 1000, '2025-03-02 08:00Z', '{}'),
      ('A', 'd4', 'h4', 'XYZ', 'success', 5, '2025-03-03 10:00Z', '{}');
    INSERT INTO price_symbols (coin, symbol, quote_coin) VALUES ('ETH', 'ETHUSDT', 'USDT'), ('BTC', 'BTCUSDT', 'USDT'), ('USDC', 'USDCUSDT', 'USDT'), ('BGB', 'BGBUSDT', 'USDT');
    INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, raw) VALUES
      ('ETHUSDT', '1h', '2025-03-03 10:00Z', 2500, 2600, 2400, 2550, '[]'),
      ('ETHUSDT', '1h', '2025-03-03 09:00Z', 2450, 2520, 2440, 2500, '[]'),
      ('BTCUSDT', '1h', '2025-03-03 10:00Z', 50000, 51000, 49000, 50500, '[]'),
      ('USDCUSDT', '1h', '2025-03-03 10:00Z', 1, 1.001, 0.998, 0.999, '[]'),
      ('BGBUSDT', '1h', '2025-03-03 10:00Z', 1.1, 1.3, 1.1, 1.2, '[]');
  `).execute(fresh.db);
  const now = new Date('2026-01-01T00:00:00Z');
  await importFx(fresh.db, memoryFile('eurofxref-hist.csv', ecb), now);
  await importTransactions(fresh.db, memoryFile('elsewhere.csv', koinly), 'elsewhere', now);
});
afterAll(async () => { await fresh?.drop(); });

interface Valued { source_id: string; leg: string; coin: string; value: string | null; price_source: string; price_time: Date | null; stablecoin_basis: string | null; fx_day: string | null }

async function valued(fiat: string): Promise<Map<string, Valued>> {
  const { rows } = await sql<Valued>`SELECT source_id, leg, coin, value::text AS value, price_source, price_time, stablecoin_basis, fx_day::text AS fx_day FROM ledger_valued(${fiat})`.execute(fresh.db);
  return new Map(rows.map((r) => [`${r.source_id.replace(/^[0-9a-f]{64}/, 'imp')}/${r.leg}`, r]));
}

// Hand-computed from the rows above: [row, rule, USD, EUR, GBP]. Divisions are exact fractions.
const d = (x: string) => new Decimal(x);
const usdPerEur = { '02-28': d('1.04'), '03-03': d('1.05'), '03-04': d('1.0625') };
const gbpPerEur = { '02-28': d('0.82'), '03-03': d('0.825'), '03-04': d('0.83') };
const fromUsd = (usd: string, day: keyof typeof usdPerEur) => ({ USD: d(usd), EUR: d(usd).div(usdPerEur[day]), GBP: d(usd).mul(gbpPerEur[day]).div(usdPerEur[day]) });
const fromEur = (eur: string, day: keyof typeof usdPerEur) => ({ USD: d(eur).mul(usdPerEur[day]), EUR: d(eur), GBP: d(eur).mul(gbpPerEur[day]) });
const fromGbp = (gbp: string, day: keyof typeof usdPerEur) => ({ USD: d(gbp).mul(usdPerEur[day]).div(gbpPerEur[day]), EUR: d(gbp).div(gbpPerEur[day]), GBP: d(gbp) });
const expected: [string, string, ReturnType<typeof fromUsd>][] = [
  ['f1/base', 'stablecoin_quote', fromUsd('5000', '03-03')],          // 5000 USDT at 1 USD (no USDT candle: par)
  ['f1/quote', 'stablecoin_quote', fromUsd('-5000', '03-03')],
  ['f1/fee:0', 'fill_price', fromUsd('-5', '03-03')],                 // 0.0001 BTC x 50000 USDT x 1 USD
  ['f1/fee:1', 'candle', fromUsd('-0.6', '03-03')],                   // 0.5 BGB: not the fill's coin, so its own candle (1.2)
  ['f2/base', 'candle', fromUsd('-5100', '03-03')],                   // -2 ETH x 2550 (10:00 candle close)
  ['f2/quote', 'candle', fromUsd('5050', '03-03')],                   // 0.1 BTC x 50500
  ['f3/base', 'fiat_quote', fromEur('-400', '03-04')],                // the 400 EUR quote side
  ['f3/quote', 'fiat_quote', fromEur('400', '03-04')],
  ['d1/amount', 'stablecoin', fromUsd('99.9', '03-03')],              // 100 USDC x its own close 0.999
  ['d2/amount', 'stablecoin', fromUsd('200', '02-28')],               // Saturday: Friday's rate
  ['d3/amount', 'fiat', fromEur('1000', '02-28')],                    // Sunday: Friday's rate
  ['imp:2/sent', 'imported', fromGbp('-2400', '03-03')],              // the user's Net Worth, 2400 GBP
  ['imp:2/received', 'imported', fromGbp('2400', '03-03')],
  ['imp:2/fee', 'candle', fromUsd('-2.5', '03-03')],                  // 0.001 ETH x 2500 (09:00 close)
];

describe('ledger_valued: each rule on hand-computed rows', () => {
  for (const fiat of ['USD', 'EUR', 'GBP'] as const) {
    it(`values every priceable row in ${fiat} by the first rule that applies`, async () => {
      const rows = await valued(fiat);
      for (const [key, rule, values] of expected) {
        const r = rows.get(key);
        expect(r, key).toBeDefined();
        expect(r!.price_source, key).toBe(rule);
        const diff = d(r!.value!).minus(values[fiat]).abs();
        expect(diff.lt('1e-12'), `${key} ${fiat}: ${r!.value} vs ${values[fiat].toFixed(20)}`).toBe(true);
      }
      expect(rows.get('d4/amount')!.price_source).toBe('unpriced');
      expect(rows.get('d4/amount')!.value).toBeNull();
      expect(rows.get('imp:3/received')!.price_source).toBe('unpriced'); // no BTC candle at 11:00
    });
  }

  it('records the candle time, the stablecoin basis and the FX day used', async () => {
    const rows = await valued('EUR');
    expect(rows.get('f2/base')!.price_time!.toISOString()).toBe('2025-03-03T10:00:00.000Z');
    expect(rows.get('imp:2/fee')!.price_time!.toISOString()).toBe('2025-03-03T09:00:00.000Z');
    expect(rows.get('f1/base')!.price_time).toBeNull();
    expect(rows.get('d1/amount')!.stablecoin_basis).toBe('market');
    expect(rows.get('d1/amount')!.price_time!.toISOString()).toBe('2025-03-03T10:00:00.000Z');
    expect(rows.get('d2/amount')!.stablecoin_basis).toBe('par');
    expect(rows.get('f1/base')!.stablecoin_basis).toBe('par');
    expect(rows.get('f2/base')!.stablecoin_basis).toBeNull();
    expect(rows.get('d2/amount')!.fx_day).toBe('2025-02-28');
    // EUR valued in EUR needs no rate at all; in USD it takes the last earlier rate.
    expect(rows.get('d3/amount')!.fx_day).toBeNull();
    expect(rows.get('f3/quote')!.fx_day).toBeNull();
    const usd = await valued('USD');
    expect(usd.get('d3/amount')!.fx_day).toBe('2025-02-28');
    expect(usd.get('f3/quote')!.fx_day).toBe('2025-03-04');
  });

  it('keeps each row\'s sign and both legs of a trade equal and opposite', async () => {
    const rows = await valued('GBP');
    for (const t of ['f1', 'f3']) expect(d(rows.get(`${t}/base`)!.value!).plus(rows.get(`${t}/quote`)!.value!).isZero(), t).toBe(true);
    expect(d(rows.get('f1/fee:0')!.value!).isNegative()).toBe(true);
  });

  it('values USD without any FX file, and leaves a fiat without rates unpriced', async () => {
    const other = await freshDatabase();
    try {
      await sql.raw(`INSERT INTO deposits (account_uid, order_id, trade_id, coin, status, size, c_time, raw) VALUES ('A', 'd2', 'h2', 'USDT', 'success', 200, '2025-03-01 12:00Z', '{}')`).execute(other.db);
      const usd = await sql<{ value: string; price_source: string }>`SELECT value::text AS value, price_source FROM ledger_valued('USD')`.execute(other.db);
      expect(usd.rows).toEqual([{ value: '200', price_source: 'stablecoin' }]);
      const chf = await sql<{ value: string | null; price_source: string }>`SELECT value::text AS value, price_source FROM ledger_valued('chf')`.execute(other.db);
      expect(chf.rows).toEqual([{ value: null, price_source: 'unpriced' }]);
    } finally {
      await other.drop();
    }
  });

  it('summarises the rules used', async () => {
    const s = await valuationSummary(fresh.db, 'usd');
    expect(s.fiat).toBe('USD');
    expect(s.rows).toBe(expected.length + 2);
    expect(s.bySource.unpriced).toBe(2);
    expect(s.bySource.candle).toBe(4);
    expect(s.stablecoinBasis).toEqual({ market: 1, par: 4 });
  });
});

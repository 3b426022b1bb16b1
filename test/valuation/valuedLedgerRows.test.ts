import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { importFx } from '../../src/imports/importFx.js';
import { importTransactions } from '../../src/imports/importTransactions.js';
import { memoryFile } from '../support/memoryFile.js';

// ledger_valued (sql/schema/functions/ledger_valued.sql) builds a spot fill's rows and the imported transactions' rows itself
// (with the fill's amount and price, the Net Worth) instead of reading them from the ledger view
// and joining back. Its ledger columns must stay exactly the ledger view's rows, including the
// edge cases the view filters: rows flagged with a sign the API never uses, a fee whose fill is
// missing, a symbol without a known quote coin, a side that is neither buy nor sell, a period.
const unusedSign = '{"amount: a sign the API never uses for this field"}';
const ecb = `Date,USD,GBP,
2025-03-04,1.0625,0.8300,
2025-03-03,1.0500,0.8250,
`;
const koinly = `Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash
2025-03-03 09:00 UTC,2500,USDC,1,ETH,0.001,ETH,2400,GBP,,bought elsewhere,0xabc
2025-03-03 11:00 UTC,,,0.5,BTC,,,,,,opening balance,
2025-03-04 12:00 UTC,100,EUR,,,1,EUR,,,,sent away,
`;

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(`
    INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, price_avg, size, amount, c_time, problems, raw) VALUES
      ('A', 'f1', 'o1', 'BTCUSDT', 'buy', 50000, 0.1, 5000.00, '2025-03-03 10:15Z', '{}', '{}'),
      ('A', 'f2', 'o2', 'ETHBTC', 'Sell', 0.05, 2, 0.1, '2025-03-03 10:20Z', '{}', '{}'),
      ('A', 'f3', 'o3', 'BTCEUR', 'sell', 40000, 0.01, 400, '2025-03-04 10:20Z', '{}', '{}'),
      ('A', 'f4', 'o4', 'XYZABC', 'buy', 2, 3, 6, '2025-03-04 11:00Z', '{}', '{}'),
      ('A', 'f5', 'o5', 'BTCUSDT', 'cancel', 50000, 0.1, 5000, '2025-03-04 11:05Z', '{}', '{}'),
      ('A', 'f6', 'o6', 'BTCUSDT', 'buy', 50000, 0.2, 10000, '2025-03-04 11:10Z', '${unusedSign}', '{}'),
      ('B', 'f1', 'o7', 'ETHUSDC_SPBL', 'sell', 2500, 1, 2500, '2025-03-04 12:00Z', '{}', '{}');
    INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time) VALUES
      ('A', 'spot_fills', 'f1', 0, 'BTC', 0.0001, 'new', '2025-03-03 10:15Z'),
      ('A', 'spot_fills', 'f1', 1, 'BGB', 0.5, 'new', '2025-03-03 10:15Z'),
      ('A', 'spot_fills', 'f2', 0, 'BTC', 0.00001, 'new', '2025-03-03 10:20Z'),
      ('A', 'spot_fills', 'f3', 0, 'BTC', 0.00001, 'new', '2025-03-04 10:20Z'),
      ('A', 'spot_fills', 'f4', 0, 'ABC', 0.01, 'new', '2025-03-04 11:00Z'),
      ('A', 'spot_fills', 'f6', 0, 'USDT', 1, 'new', '2025-03-04 11:10Z'),
      ('A', 'spot_fills', 'gone', 0, 'USDT', 2, 'new', '2025-03-04 11:20Z'),
      ('B', 'spot_fills', 'f1', 0, 'USDC', 2.5, 'new', '2025-03-04 12:00Z');
    INSERT INTO deposits (account_uid, order_id, trade_id, coin, status, size, c_time, problems, raw) VALUES
      ('A', 'd1', 'h1', 'USDC', 'success', 100, '2025-03-03 10:30Z', '{}', '{}'),
      ('A', 'd2', 'h2', 'EUR', 'success', 1000, '2025-03-04 08:00Z', '{}', '{}'),
      ('A', 'd3', 'h3', 'BTC', 'pending', 1, '2025-03-04 08:00Z', '{}', '{}'),
      ('A', 'd4', 'h4', 'BTC', 'success', 1, '2025-03-04 09:00Z', '${unusedSign}', '{}');
    INSERT INTO withdrawals (account_uid, order_id, trade_id, coin, status, size, fee, c_time, raw) VALUES
      ('A', 'w1', 'x1', 'BTC', 'success', 0.5, 0.0005, '2025-03-04 13:00Z', '{}');
    INSERT INTO futures_bills (account_uid, product_type, bill_id, symbol, coin, business_type, amount, fee, c_time, raw) VALUES
      ('A', 'USDT-FUTURES', 'b1', 'BTCUSDT', 'USDT', 'close_long', 12.5, -0.3, '2025-03-04 14:00Z', '{}');
    INSERT INTO price_symbols (coin, symbol, quote_coin) VALUES ('ETH', 'ETHUSDT', 'USDT'), ('BTC', 'BTCUSDT', 'USDT'), ('USDC', 'USDCUSDT', 'USDT');
    INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, raw) VALUES
      ('ETHUSDT', '1h', '2025-03-03 10:00Z', 2500, 2600, 2400, 2550, '[]'),
      ('BTCUSDT', '1h', '2025-03-03 10:00Z', 50000, 51000, 49000, 50500, '[]'),
      ('USDCUSDT', '1h', '2025-03-04 12:00Z', 1, 1.001, 0.998, 0.999, '[]');
  `).execute(fresh.db);
  const now = new Date('2026-01-01T00:00:00Z');
  await importFx(fresh.db, memoryFile('eurofxref-hist.csv', ecb), now);
  await importTransactions(fresh.db, memoryFile('elsewhere.csv', koinly), 'elsewhere', now);
  // The previous ledger_valued (sql/migrations/0027_ledger_valued_faster.sql), renamed, to compare every value with.
  const text = readFileSync(new URL('../../sql/migrations/0027_ledger_valued_faster.sql', import.meta.url), 'utf8');
  const start = text.indexOf('CREATE FUNCTION ledger_valued(');
  await sql.raw(text.slice(start, text.indexOf('$$;', start) + 3).replace('CREATE FUNCTION ledger_valued(', 'CREATE FUNCTION ledger_valued_0027(')).execute(fresh.db);
});
afterAll(async () => { await fresh?.drop(); });

const ledgerColumns = 'account_uid, wallet, coin, ts, amount, kind, source, source_id, leg, order_id, symbol, counterparty';

// Rows as text (so 5000.00 and 5000 differ), sorted: the same multiset or not.
async function rowsAsText(query: string): Promise<string[]> {
  const { rows } = await sql<{ t: string }>`SELECT x::text AS t FROM (${sql.raw(query)}) x`.execute(fresh.db);
  return rows.map((r) => r.t).sort();
}

describe('ledger_valued: the ledger columns are exactly the ledger view', () => {
  for (const fiat of ['USD', 'GBP', 'EUR']) {
    it(`gives every ledger row once, unchanged, in ${fiat}`, async () => {
      const view = await rowsAsText(`SELECT ${ledgerColumns} FROM ledger`);
      const valued = await rowsAsText(`SELECT ${ledgerColumns} FROM ledger_valued('${fiat}')`);
      expect(view.length).toBeGreaterThan(20);
      expect(valued).toEqual(view);
    });
  }

  it('gives the ledger view\'s rows of a period', async () => {
    const view = await rowsAsText(`SELECT ${ledgerColumns} FROM ledger WHERE ts >= '2025-03-04Z' AND ts < '2025-03-04 12:00Z'`);
    const valued = await rowsAsText(`SELECT ${ledgerColumns} FROM ledger_valued('GBP', '2025-03-04Z', '2025-03-04 12:00Z')`);
    expect(view.length).toBeGreaterThan(3);
    expect(valued).toEqual(view);
  });

  for (const fiat of ['USD', 'GBP', 'EUR', 'JPY']) {
    it(`values every row exactly as migration 0027 did, digit for digit, in ${fiat}`, async () => {
      const before = await rowsAsText(`SELECT * FROM ledger_valued_0027('${fiat}')`);
      // Migration 0027's columns: 0061_demo_out_of_tax.sql added a last one, demo (false for every row of this fixture,
      // which has no demo account; demo rows are tested in test/reports/demoAccounts.test.ts).
      const after = await rowsAsText(`SELECT ${ledgerColumns}, fiat, unit_price, value, price_source, price_time, stablecoin_basis, fx_day FROM ledger_valued('${fiat}')`);
      expect(await rowsAsText(`SELECT DISTINCT demo FROM ledger_valued('${fiat}', '-infinity', 'infinity', true)`)).toEqual(['(f)']);
      expect(after.length).toBeGreaterThan(20);
      expect(after).toEqual(before);
    });
  }

  it('values a fill\'s two legs by its quote amount and a fee without its fill by its own coin', async () => {
    const { rows } = await sql<{ source_id: string; leg: string; account_uid: string; value: string | null; price_source: string }>`
      SELECT account_uid, source_id, leg, value::text AS value, price_source FROM ledger_valued('USD')
      WHERE source = 'spot_fills' ORDER BY account_uid, source_id, leg`.execute(fresh.db);
    const by = new Map(rows.map((r) => [`${r.account_uid}/${r.source_id}/${r.leg}`, r]));
    expect(by.get('A/f1/base')).toMatchObject({ value: '5000.00', price_source: 'stablecoin_quote' });
    expect(by.get('A/f1/quote')).toMatchObject({ value: '-5000.00', price_source: 'stablecoin_quote' });
    expect(by.get('B/f1/base')).toMatchObject({ price_source: 'stablecoin_quote' }); // ETHUSDC_SPBL, USDC at par (no candle that hour)
    expect(by.get('A/f4/base')).toMatchObject({ value: null, price_source: 'unpriced' }); // XYZABC: no quote coin known
    expect(by.get('A/gone/fee:0')).toMatchObject({ value: '-2', price_source: 'stablecoin' });
    expect(by.has('A/f5/base')).toBe(false);
    expect(by.has('A/f6/base')).toBe(false);
    expect(by.has('A/f6/fee:0')).toBe(false);
  });
});

// Issue 24: the gains runner reads the valued ledger with nine of its fields packed into one text
// column (VALUED_LEDGER_PACKED_SQL, src/gains/runGains.ts), because node-postgres's string per
// column per row cost more CPU than the matching. Packing is only a transport: every row must come
// back exactly as the plain query (one column per field, VALUED_LEDGER_SQL) gives it, with every
// NULL still NULL. Held here on a synced sandbox account (spot fills and their fees, deposits,
// withdrawals, transfers, margin, futures, the demo account) plus imported lines with labels,
// descriptions, TxHashes and Net Worth, corrections in force (a classification, an own-wallet move
// with its other side, a corrected price), and both a fiat with no rates (rows unpriced: value
// NULL) and USD, with and without demo rows.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { testSyncOptions } from '../support/testSync.js';
import { runSync } from '../../src/extract/runSync.js';
import { packedValuedRow, VALUED_LEDGER_PACKED_SQL, VALUED_LEDGER_SQL } from '../../src/gains/runGains.js';
import type { ValuedRow } from '../../src/gains/ledgerEvents.js';
import { insertImported } from './importedLedger.js';

const env = sandboxWithDatabase();
const asText = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

describe('the packed read of the valued ledger', () => {
  it('gives every row and every field (NULLs included) as the plain read does', async () => {
    expect((await runSync(testSyncOptions(env.sandbox, env.fresh.db))).status).toBe('ok');
    const db = env.fresh.db;
    await insertImported(db, 'cold-wallet', [
      { ts: '2024-02-01T10:00:00.123456Z', sent: ['5000', 'GBP'], received: ['0.1', 'BTC'], fee: ['0.0001', 'BTC'], netWorth: ['5000', 'GBP'], label: 'swap' },
      { ts: '2024-03-01T10:00:00Z', received: ['12.5', 'DOT'], netWorth: ['60', 'GBP'], label: 'reward' },
      { ts: '2024-04-01T10:00:00Z', sent: ['0.01', 'BTC'], label: 'gift' },
      { ts: '2024-05-01T10:00:00Z', received: ['3', 'NOPRICE'] },
    ]);
    await sql`UPDATE imported_transactions SET description = 'a "quoted", multi-line' || E'\n' || 'description; with , commas', tx_hash = '0xabc'
              WHERE wallet = 'cold-wallet' AND label = 'swap'`.execute(db);
    // Corrections in force on three synced rows: a classification, an own-wallet move (with its
    // other side) and a price alone.
    const pick = async (kind: string) => (await sql<{ account_uid: string; wallet: string; source: string; source_id: string; leg: string }>`
      SELECT account_uid, wallet, source, source_id, leg FROM ledger WHERE kind = ${kind} AND NOT demo ORDER BY ts, source_id LIMIT 1`.execute(db)).rows[0]!;
    const deposit = await pick('deposit');
    const withdrawal = await pick('withdrawal');
    const buy = await pick('trade_buy');
    const correct = async (row: typeof deposit, classification: string | null, otherSide: string | null, price: string | null) => {
      await sql`INSERT INTO ledger_corrections (account_uid, wallet, source, source_id, leg, classification, other_side, price, price_currency, price_source, why, set_by)
                VALUES (${row.account_uid}, ${row.wallet}, ${row.source}, ${row.source_id}, ${row.leg}, ${classification}, ${otherSide},
                        ${price}::numeric, ${price === null ? null : 'USD'}, ${price === null ? null : 'test quote'}, 'packed read test', 'tester')`.execute(db);
    };
    await correct(deposit, 'income_staking', null, null);
    await correct(withdrawal, 'own_wallet', 'my ledger nano', null);
    await correct(buy, null, null, '123.456');

    const client = new pg.Client({ connectionString: env.fresh.url });
    await client.connect();
    try {
      let compared = 0;
      const seen = { nullValue: 0, correction: 0, label: 0, description: 0, counterparty: 0, otherSide: 0, classification: 0, orderId: 0, demo: 0 };
      for (const [fiat, includeDemo] of [['USD', true], ['USD', false], ['SEK', false]] as const) {
        const values = [fiat, 'Europe/London', '', '2100-01-01', includeDemo, '-infinity', 'infinity'];
        const plain = await client.query<(string | null)[]>({ text: VALUED_LEDGER_SQL, values, rowMode: 'array', types: asText });
        const packed = await client.query<(string | null)[]>({ text: VALUED_LEDGER_PACKED_SQL, values, rowMode: 'array', types: asText });
        const names = plain.fields.map((f) => f.name);
        const expected = plain.rows.map((r) => {
          const o = Object.fromEntries(names.map((n, i) => [n, r[i]])) as Record<string, string | null>;
          return { ...o, ms: Number(o.ms) } as unknown as ValuedRow;
        });
        expect(packed.rows.map(packedValuedRow)).toEqual(expected);
        // Each field the plain read gives is a field of ValuedRow (no column dropped on the way).
        expect(Object.keys(packedValuedRow(packed.rows[0]!)).sort()).toEqual([...names].sort());
        compared += expected.length;
        for (const r of expected) {
          if (r.value === null) seen.nullValue++;
          if (r.correction_id !== null) seen.correction++;
          if (r.label !== null) seen.label++;
          if (r.description !== null) seen.description++;
          if (r.counterparty !== null) seen.counterparty++;
          if (r.other_side !== null) seen.otherSide++;
          if (r.classification !== null) seen.classification++;
          if (r.order_id !== null) seen.orderId++;
          if (['susdt_futures', 'scoin_futures', 'susdc_futures'].includes(r.wallet)) seen.demo++;
        }
      }
      // The world holds every kind of field, NULL and not, so the comparison above can fail.
      expect(compared).toBeGreaterThan(500);
      for (const [field, n] of Object.entries(seen)) expect(n, field).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('refuses a row whose packed column does not split into nine fields', () => {
    const row = (packed: string) => [packed, 'acct', 'spot', 'BTC', 'id-1', null, null, null, null, null, null];
    expect(packedValuedRow(row('1700000000000\x1f2023-11-14\x1f-1.5\x1ftrade_sell\x1fspot_fills\x1fbase\x1f\x1fcandle\x1f'))).toMatchObject({
      ms: 1_700_000_000_000, day: '2023-11-14', amount: '-1.5', kind: 'trade_sell', value: null, price_source: 'candle', correction_id: null,
    });
    expect(() => packedValuedRow(row('1700000000000\x1f2023-11-14\x1f-1.5\x1ftrade\x1fsell\x1fspot_fills\x1fbase\x1f\x1fcandle\x1f')))
      .toThrow(/10 parts, not 9/);
    expect(() => packedValuedRow(row('1700000000000'))).toThrow(/1 parts, not 9/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { fixtureSql } from './ledgerFixture.js';

let fresh: FreshDatabase;
type Row = { account_uid: string; wallet: string; coin: string | null; amount: string; kind: string; source: string; source_id: string; leg: string };
let rows: Row[];

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  const result = await sql<Row>`
    SELECT account_uid, wallet, coin, money_text(amount) AS amount, kind, source, source_id, leg
    FROM ledger ORDER BY ts, source, source_id, leg`.execute(fresh.db);
  rows = result.rows;
});
afterAll(async () => { await fresh?.drop(); });

const pick = (source: string, id: string) => rows
  .filter((r) => r.source === source && r.source_id === id)
  .map((r) => `${r.account_uid} ${r.wallet} ${r.leg} ${r.kind} ${r.amount} ${r.coin}`)
  .sort();

describe('ledger view', () => {
  it('produces every kind the issue lists, and no other', () => {
    expect([...new Set(rows.map((r) => r.kind))].sort()).toEqual([
      'borrow', 'compensate', 'confiscated', 'deposit', 'exchange_in', 'exchange_out', 'fee', 'funding_fee',
      'interest', 'liquidation_fee', 'realized_pnl', 'repay', 'trade_buy', 'trade_sell', 'transfer_in',
      'transfer_out', 'withdrawal',
    ]);
  });

  it('splits a spot fill into base and quote legs with exact amounts, and adds each fee coin once', () => {
    expect(pick('spot_fills', 'f1')).toEqual([
      'A spot base trade_buy 0.000000089 BTC',
      'A spot fee:0 fee -0.5 BGB',
      'A spot quote trade_sell -12345678901234.123456789012 USDT',
    ]);
    expect(pick('spot_fills', 'f2')).toEqual([
      'A spot base trade_sell -2 ETH',
      'A spot fee:0 fee -3.5 USDT',
      'A spot fee:1 fee -0.1 BGB',
      'A spot quote trade_buy 7000 USDT',
    ]);
    // A rebate (paid < 0) comes in.
    expect(pick('spot_fills', 'f3')).toContain('A spot fee:0 fee 0.2 USDT');
  });

  it('never counts order or futures-fill fees, nor orders, fills or tax copies', () => {
    const sources = new Set(rows.map((r) => r.source));
    expect([...sources].sort()).toEqual(['deposits', 'futures_bills', 'margin_records', 'spot_fills', 'transfers', 'withdrawals']);
    const feeRows = rows.filter((r) => r.kind === 'fee' && r.source === 'spot_fills');
    expect(feeRows).toHaveLength(4); // f1: 1, f2: 2, f3: 1
  });

  it('keeps settled records only', () => {
    expect(pick('deposits', 'd1')).toEqual(['A spot amount deposit 1000 USDT']);
    expect(pick('deposits', 'd2')).toEqual([]);
    expect(pick('deposits', 'd3')).toEqual([]);
    expect(pick('withdrawals', 'w1')).toEqual(['A spot amount withdrawal -100 USDT', 'A spot fee fee -1 USDT']);
    expect(pick('withdrawals', 'w2')).toEqual([]);
    expect(pick('transfers', 'x2')).toEqual([]);
  });

  it('books a transfer between two accounts as two legs that net to zero', () => {
    expect(pick('transfers', 'x1')).toEqual(['A spot from transfer_out -250 USDT', 'B spot to transfer_in 250 USDT']);
  });

  it('leaves a transfer into futures to the futures bill, so it is not doubled', () => {
    expect(pick('transfers', 'x3')).toEqual(['A spot from transfer_out -40 USDT']);
    expect(pick('futures_bills', 'b0')).toEqual(['A usdt_futures amount transfer_in 40 USDT']);
  });

  it('signs margin records by their type', () => {
    const margin = rows.filter((r) => r.source === 'margin_records' && r.wallet === 'crossed_margin')
      .map((r) => `${r.source_id} ${r.kind} ${r.amount}`);
    expect(margin).toEqual([
      'm1 borrow 100', 'm2 repay -50', 'm3 interest -0.5', 'm4 liquidation_fee -1.5', 'm5 compensate 2',
      'm6 confiscated -3', 'm7 exchange_in 4', 'm8 exchange_out -5', 'm9 trade_buy 0.01', 'm10 trade_sell -0.005',
      'm11 transfer_in 10', 'm12 transfer_out -5',
    ]);
    expect(pick('margin_records', 'm1').filter((r) => r.includes('isolated'))).toEqual([
      'A isolated_margin amount borrow 7 USDT', 'A isolated_margin fee fee -0.07 USDT',
    ]);
  });

  it('takes futures PnL, funding and fees from the bills, one wallet per product type', () => {
    expect(pick('futures_bills', 'b1')).toEqual(['A usdt_futures amount realized_pnl 12.5 USDT', 'A usdt_futures fee fee -0.3 USDT']);
    expect(pick('futures_bills', 'b2')).toEqual(['A usdt_futures amount funding_fee -0.02 USDT']);
    expect(pick('futures_bills', 'b3')).toEqual(['A usdt_futures fee fee -0.1 USDT']);
  });

  it('sums to hand-computed balances', async () => {
    const sums = await sql<{ k: string; total: string }>`
      SELECT account_uid || ' ' || wallet || ' ' || coin AS k, money_text(sum(amount)) AS total
      FROM ledger GROUP BY 1 ORDER BY 1`.execute(fresh.db);
    expect(Object.fromEntries(sums.rows.map((r) => [r.k, r.total]))).toEqual({
      'A crossed_margin BTC': '4.005',
      'A crossed_margin USDT': '47', // 100 - 50 - 0.5 - 1.5 + 2 - 3 - 5 + 10 - 5
      'A isolated_margin USDT': '6.93',
      'A spot BGB': '-0.6',
      'A spot BTC': '1.000000089',
      'A spot ETH': '-2',
      // 1000 - 100 - 1 - 250 - 40 - 12345678901234.123456789012 + 7000 - 3.5 - 60000 + 0.2
      'A spot USDT': '-12345678953628.423456789012',
      'A usdt_futures USDT': '52.08',
      'B spot USDT': '250',
    });
  });

  it('normalises the exchange\'s enum spellings', async () => {
    const r = await sql<{ a: string; b: string; c: string; d: string; e: string; f: string }>`
      SELECT norm_status('partially_fill') AS a, norm_status('canceled') AS b, norm_status('Successful') AS c,
             norm_side('systemRepay-selll') AS d, norm_dest('internal_transfer') AS e, norm_dest('internal') AS f`.execute(fresh.db);
    expect(r.rows[0]).toEqual({ a: 'partially_filled', b: 'cancelled', c: 'success', d: 'systemRepay-sell', e: 'internal', f: 'internal' });
  });
});

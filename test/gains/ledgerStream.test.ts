import { describe, expect, it } from 'vitest';
import { LedgerStream } from '../../src/gains/ledgerStream.js';
import type { LedgerOutcome, ValuedRow } from '../../src/gains/ledgerEvents.js';

// Issue 21 item 4: the Koinly round trip showed two own-account movements that the synced
// ledger's gains got wrong because the arriving leg was read first (source order at one instant).
const MS = Date.parse('2025-11-27T05:42:59.389Z');
const row = (over: Partial<ValuedRow>): ValuedRow => ({
  account_uid: '1001', wallet: 'spot', coin: 'DOGE', ms: MS, day: '2025-11-27', amount: '0', kind: 'deposit',
  source: 'deposits', source_id: 'd1', leg: 'amount', counterparty: null, order_id: null, value: null, label: null, ...over,
});
const events = (rows: ValuedRow[]) => {
  const s = new LedgerStream('USD');
  const out: LedgerOutcome[] = [];
  for (const r of rows) out.push(...s.push(r));
  out.push(...s.finish());
  return out.flatMap((o) => o.events.map((e) => `${e.type} ${e.asset} ${e.quantity.toFixed()} ${e.pool}${e.type === 'move' ? ` -> ${e.toPool}` : ''}`));
};

describe('LedgerStream: the arriving side of a movement after what left in the same instant', () => {
  it('an internal transfer (deposit and withdrawal at one millisecond, deposits sorted first) is one move, no acquisition', () => {
    const rows = [
      row({ account_uid: '1002', amount: '100', kind: 'deposit', source: 'deposits', source_id: '9', counterparty: '1001', order_id: 'tx1', value: '10' }),
      row({ account_uid: '1001', amount: '-100', kind: 'withdrawal', source: 'withdrawals', source_id: '8', counterparty: '1002', order_id: 'tx1', value: '-10' }),
    ];
    expect(events(rows)).toEqual(['move DOGE 100 1001:spot -> external:1002', 'move DOGE 100 external:1002 -> 1002:spot']);
    // Read as sorted (deposit first, as before the fix) the deposit was an acquisition at market value.
    const s = new LedgerStream('USD');
    const early = [...s.push(rows[0]!), ...s.finish()];
    expect(early.flatMap((o) => o.events.map((e) => e.type))).toEqual(['acquire']);
  });

  it('a futures trans_in bill (sorted before the E19 leg out of spot) takes the lots the leg put in transit', () => {
    expect(events([
      row({ wallet: 'usdc_futures', coin: 'USDC', amount: '32100', kind: 'transfer_in', source: 'futures_bills', source_id: 'b1' }),
      row({ wallet: 'spot', coin: 'USDC', amount: '-32100', kind: 'transfer_out', source: 'transfers', source_id: 't1', leg: 'from' }),
    ])).toEqual(['move USDC 32100 1001:spot -> transit', 'move USDC 32100 transit -> 1001:usdc_futures']);
  });

  it('other transactions of an instant keep their order; a new instant ends the one before', () => {
    expect(events([
      row({ coin: 'BTC', amount: '1', kind: 'trade_buy', source: 'spot_fills', source_id: 'f1', leg: 'base', value: '100' }),
      row({ coin: 'USDT', amount: '-100', kind: 'trade_sell', source: 'spot_fills', source_id: 'f1', leg: 'quote', value: '-100' }),
      row({ coin: 'BTC', amount: '-1', kind: 'trade_sell', source: 'spot_fills', source_id: 'f2', leg: 'base', value: '-100' }),
      row({ coin: 'BTC', amount: '2', kind: 'deposit', source: 'deposits', source_id: 'd9', ms: MS + 1, value: '200' }),
    ])).toEqual(['acquire BTC 1 1001:spot', 'dispose USDT 100 1001:spot', 'dispose BTC 1 1001:spot', 'acquire BTC 2 1001:spot']);
  });
});

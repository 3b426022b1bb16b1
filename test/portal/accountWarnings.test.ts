// The unpriced warning names every cause docs/valuation.md gives for a row without a value in the
// warning's fiat: besides a missing candle, fill price or stablecoin quote, an imported line
// valued in another currency (a Koinly Net Worth in GBP) needs the ECB rate of its day ("Net
// Worth Amount, converted from Net Worth Currency by the ECB rate of the day"), so a UK user's
// import read in USD without an FX file is told what fixes it.
import { describe, expect, it } from 'vitest';
import { rankedWarnings } from '../../src/portal/accountWarnings.js';
import type { AccountHealth } from '../../src/portal/accountHealth.js';

const health: AccountHealth = {
  uid: 'bench', lastSync: null, watermark: null, streams: 0, failedStreams: [], gaps: [], flaggedRecords: 0, unclassifiedRows: 0,
  unpricedRows: 400100, unpricedFiat: 'USD', reconciliationDifferences: 0, openingBalances: 0, unsettledRecords: 0, overdueRecords: 0,
  unsettledSince: null, disposalsWithoutCost: 0,
};

describe('the unpriced warning', () => {
  it('names the fiat it counts in, the ECB rate among the causes, and the FX import among the fixes', () => {
    const w = rankedWarnings(health, { imported: true });
    expect(w.map((x) => `${x.severity} ${x.code}`)).toEqual(['red unpriced']);
    expect(w[0]!.text).toBe('400100 ledger row(s) have no USD value (no candle, fill price, stablecoin quote, or ECB rate for a value in another currency): USD values and USD gains leave them out.');
    expect(w[0]!.fix).toContain('tradeledger import fx eurofxref-hist.zip');
  });
});

describe('order history gaps the fills cover', () => {
  const gap = (stream: string, from: string, reason: string) => ({ stream, from: `${from}T00:00:00.000Z`, to: '2026-08-31T00:00:00.000Z', reason, kind: 'orders' as const, coveredByFills: true });
  it('are one line per span of dates, naming every stream of it, and a lone gap reads as before', () => {
    const w = rankedWarnings({
      ...health, unpricedRows: 0, streams: 40,
      gaps: [
        gap('futuresOrders/USDT-FUTURES', '2024-11-28', 'futuresHistoryOrders serves only the last 90 days'),
        gap('futuresOrders/COIN-FUTURES', '2024-11-28', 'futuresHistoryOrders serves only the last 90 days'),
        gap('spotOrders', '2024-11-28', 'spotHistoryOrders serves only the last 90 days'),
        gap('marginOrders', '2025-02-01', 'marginHistoryOrders serves only the last 90 days'),
        gap('planOrders', '2025-03-01', 'no history endpoint'),
        gap('copyOrders', '2025-03-01', 'copyHistoryOrders serves only the last 30 days'),
      ],
    }, { imported: false });
    expect(w.map((x) => `${x.severity} ${x.code}`)).toEqual(['info order_gap_covered', 'info order_gap_covered', 'info order_gap_covered']);
    expect(w.map((x) => x.text)).toEqual([
      'Order history gaps in futuresOrders/USDT-FUTURES, futuresOrders/COIN-FUTURES and spotOrders: 2024-11-28 to 2026-08-31 (futuresHistoryOrders and spotHistoryOrders serve only the last 90 days). No tax figure changes: orders carry none, and the fills of those dates are read.',
      'Order history gap in marginOrders: 2025-02-01 to 2026-08-31 (marginHistoryOrders serves only the last 90 days). No tax figure changes: orders carry none, and the fills of those dates are read.',
      // reasons of other shapes are listed as they are
      'Order history gaps in planOrders and copyOrders: 2025-03-01 to 2026-08-31 (no history endpoint; copyHistoryOrders serves only the last 30 days). No tax figure changes: orders carry none, and the fills of those dates are read.',
    ]);
  });
});

describe('history before the first sync\'s default start', () => {
  it('says how far back that sync started, from its gap\'s reason, and that a later sync --since reads the rest', () => {
    const unread = (days: number) => ({
      stream: 'deposits', from: '1970-01-01T00:00:00.000Z', to: '2026-08-21T00:00:00.000Z', kind: 'default_start' as const, coveredByFills: false,
      reason: `the first sync started ${days} days back (sync.historyDays, without --since): older history was not read`,
    });
    const w = rankedWarnings({ ...health, unpricedRows: 0, streams: 12, gaps: [unread(100)] }, { imported: false });
    expect(w.map((x) => `${x.severity} ${x.code}`)).toEqual(['amber default_start']);
    expect(w[0]!.text).toBe("History before 2026-08-21 was not read in 1 stream (the first sync's default start, 100 days back): holdings bought before it have no cost.");
    expect(w[0]!.fix).toBe("run tradeledger sync --since YYYY-MM-DD (the account's opening date): the older history is read and added");
    // A reason in another wording (an older version's) still gives a true sentence.
    const old = rankedWarnings({ ...health, unpricedRows: 0, streams: 12, gaps: [{ ...unread(730), reason: 'default start' }] }, { imported: false });
    expect(old[0]!.text).toContain("(the first sync's default start, sync.historyDays back)");
  });
});

import { describe, expect, it } from 'vitest';
import { syncSummary } from '../../src/cli/progress/syncSummary.js';
import { statusGapLines } from '../../src/cli/statusCommand.js';
import type { SyncResult } from '../../src/extract/runSync.js';

const result = (gaps: SyncResult['gaps'], backfills: SyncResult['backfills'] = []): SyncResult => ({ runId: '7', status: 'ok', counts: {}, errors: [], gaps, backfills });
const gap = (account: string, stream: string, partition: string, from = '2024-11-28T00:00:00.000Z', to = '2026-08-31T00:00:00.000Z') => ({ account, stream, partition, from, to });
const gapLines = (text: string) => text.split('\n').filter((l) => l.startsWith('history gap'));

// What a sync prints after its run (the demo prints it too). The exchange serves orders for the
// last 90 days only, so on a first sync every order stream of every account has the same gap: the
// demo's six accounts printed eleven near-identical lines, one per account and stream.
describe('syncSummary: history gaps', () => {
  it('prints one line per span of dates, naming each stream and its accounts', () => {
    const text = syncSummary(result([
      gap('main', 'spotOrders', 'all'), gap('main', 'futuresOrders', 'USDT-FUTURES'), gap('main', 'futuresOrders', 'COIN-FUTURES'),
      gap('sub1', 'spotOrders', 'all'), gap('demo', 'futuresOrders', 'SUSDT-FUTURES'),
      gap('main', 'marginRecords', 'crossed', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'),
    ]));
    expect(gapLines(text)).toEqual([
      "history gap 2024-11-28 .. 2026-08-31 (older than the endpoints' horizons): futuresOrders of demo and main; spotOrders of main and sub1; `tradeledger status` says whether it changes a tax figure",
      "history gap main/marginRecords: 2023-01-01 .. 2024-01-01 (older than the endpoint's horizon)",
    ]);
  });

  it('keeps the first sync\'s default start to one line per account', () => {
    const text = syncSummary(result([
      gap('main', 'deposits', 'all', '1970-01-01T00:00:00.000Z', '2024-11-29T00:00:00.000Z'),
      gap('main', 'spotFills', 'all', '1970-01-01T00:00:00.000Z', '2024-11-28T00:00:00.000Z'),
    ]));
    expect(gapLines(text)).toEqual([
      'history gap main: before 2024-11-28 in 2 stream(s), not read: a first sync starts sync.historyDays back; to read older history, sync again with --since YYYY-MM-DD',
    ]);
  });
});

describe('syncSummary: history an earlier --since added', () => {
  it('prints one line per account, from the earliest to the latest date added', () => {
    const text = syncSummary(result([], [
      gap('main', 'deposits', 'all', '2026-06-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z'),
      gap('main', 'spotOrders', 'all', '2026-08-31T00:00:00.000Z', '2026-10-01T00:00:00.000Z'),
      gap('main', 'planOrders', 'USDT-FUTURES/normal_plan', '2026-06-01T00:00:00.000Z', '2026-11-22T00:00:00.000Z'),
    ]));
    expect(text.split('\n').filter((l) => l.startsWith('history added'))).toEqual([
      'history added main: 2026-06-01 .. 2026-11-22 in 3 stream(s), read for --since (before where the earlier syncs began)',
    ]);
  });
});

// `status` lists the gaps under each stream; the three futures product types of an order stream
// share one gap, and the demo's status printed three near-identical lines under every futuresOrders.
describe('statusGapLines', () => {
  it('prints one line per span of dates, naming every partition that has it', () => {
    const at = (partition: string, from = '2024-11-28T00:00:00.000Z', to = '2026-08-31T00:00:00.000Z') => ({ partition, from, to });
    expect(statusGapLines([at('USDT-FUTURES'), at('COIN-FUTURES'), at('USDC-FUTURES'), at('USDT-FUTURES', '2023-01-01T00:00:00.000Z', '2023-02-01T00:00:00.000Z')])).toEqual([
      "history gap COIN-FUTURES, USDC-FUTURES and USDT-FUTURES: 2024-11-28 .. 2026-08-31 (beyond the endpoint's horizon)",
      "history gap USDT-FUTURES: 2023-01-01 .. 2023-02-01 (beyond the endpoint's horizon)",
    ]);
    expect(statusGapLines([at('all', '1970-01-01T00:00:00.000Z', '2024-11-29T00:00:00.000Z')])).toEqual([
      "history gap all: before 2024-11-29 (the first sync's default start; read it with tradeledger sync --since YYYY-MM-DD)",
    ]);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import type { ReportFormat } from '../../src/reports/reportFormats.js';
import { Decimal, addTo, sumsOf, type ToolView } from './checkers/toolView.js';
import { koinlyView } from './checkers/koinlyChecker.js';
import { coinTrackerKey, coinTrackerView } from './checkers/coinTrackerChecker.js';
import { coinTrackingView } from './checkers/coinTrackingChecker.js';
import { ctcView } from './checkers/ctcChecker.js';

// Issue 10: each tax-tool file, read back by a small interpreter of that tool's documented rules,
// must never turn an own-account movement into a disposal or income, must hold exactly the ledger's
// balance per coin (and per wallet where the tool keeps wallets), must see every spot fill as
// exactly one trade, and every fee exactly once. On a sandbox sync of every account, for a whole
// year, in UTC and in Asia/Tokyo. The sandbox shows both legs of every own-account movement, as
// the exchange does, so the legs a file leaves out cancel exactly.

const env = sandboxWithDatabase();
let outRoot: string;
let year: string;

beforeAll(async () => {
  const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
  expect(result.errors).toEqual([]);
  // The last whole calendar year: the sandbox history covers two years back from now.
  year = String(new Date(env.sandbox.world.now()).getUTCFullYear() - 1);
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-checkers-'));
}, 300_000);
afterAll(async () => {
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

const views: Record<Exclude<ReportFormat, 'native'>, (rows: Record<string, string>[]) => ToolView> = {
  koinly: koinlyView, cointracker: coinTrackerView, cointracking: coinTrackingView, ctc: ctcView,
};

interface Truth {
  ledger: Record<string, string>;
  /** Own-account movement legs of the period, per coin (received - sent). */
  ownNet: Map<string, Decimal>;
  ownRefs: Set<string>;
  /** Deposits and withdrawals with one leg outside: a chain address or another user's UID. */
  outsideRefs: Set<string>;
  outsideUidRefs: Set<string>;
  ownCoinTrackerKeys: Set<string>;
  otherCoinTrackerKeys: Set<string>;
  borrowRepayNet: Map<string, Decimal>;
  spotFills: number;
  fees: Map<string, Decimal>;
  coinTrackerFees: Map<string, Decimal>;
  walletLedger: Record<string, string>;
}

async function truth(from: string, to: string): Promise<Truth> {
  const db = env.fresh.db;
  const ledger = await sql<{ account_uid: string; wallet: string; coin: string; kind: string; amount: string }>`
    SELECT account_uid, wallet, coin, kind, amount::text AS amount FROM ledger WHERE ts >= ${from}::timestamptz AND ts < ${to}::timestamptz
      AND NOT demo`.execute(db); // the tax-tool files leave demo-trading rows out (sql/0061; test/reports/demoAccounts.test.ts)
  const tx = await sql<{ source: string; source_id: string; kind: string; own: boolean; coin: string; net: string; d: string; amount: string; counterparty: string | null }>`
    SELECT source, source_id, kind, own_account AS own, counterparty, coalesce(sent_coin, received_coin) AS coin,
           (coalesce(received_amount, 0) - coalesce(sent_amount, 0))::text AS net,
           to_char(ts AT TIME ZONE 'UTC', 'MM/DD/YYYY HH24:MI:SS') AS d, money_text(coalesce(sent_amount, received_amount)) AS amount
    FROM tax_transactions(${from}::timestamptz, ${to}::timestamptz, '')`.execute(db);
  const fills = await sql<{ n: string }>`
    SELECT count(DISTINCT source_id)::text AS n FROM ledger
    WHERE source = 'spot_fills' AND kind IN ('trade_buy', 'trade_sell') AND ts >= ${from}::timestamptz AND ts < ${to}::timestamptz`.execute(db);
  const sums = new Map<string, Decimal>();
  const walletSums = new Map<string, Decimal>();
  const fees = new Map<string, Decimal>();
  const coinTrackerFees = new Map<string, Decimal>();
  const borrowRepayNet = new Map<string, Decimal>();
  for (const r of ledger.rows) {
    const amount = new Decimal(r.amount);
    addTo(sums, r.coin, amount);
    addTo(walletSums, `${r.account_uid} ${r.wallet} ${r.coin}`, amount);
    if (r.kind === 'fee') addTo(fees, r.coin, amount.neg());
    if ((r.kind === 'fee' && !(r.wallet === 'spot' && amount.gt(0))) || r.kind === 'interest' || r.kind === 'liquidation_fee') {
      addTo(coinTrackerFees, r.coin, amount.neg());
    }
    if (r.kind === 'borrow' || r.kind === 'repay') addTo(borrowRepayNet, r.coin, amount);
  }
  const ownNet = new Map<string, Decimal>();
  const ownRefs = new Set<string>();
  const ownKeys = new Set<string>();
  const otherKeys = new Set<string>();
  const outsideRefs = new Set<string>();
  const outsideUidRefs = new Set<string>();
  for (const r of tx.rows) {
    if (!r.own && (r.kind === 'deposit' || r.kind === 'withdrawal')) {
      outsideRefs.add(`${r.source}:${r.source_id}`);
      if (/^\d+$/.test(r.counterparty ?? '')) outsideUidRefs.add(`${r.source}:${r.source_id}`);
    }
    const key = coinTrackerKey(r.d, r.coin, r.amount);
    if (r.own) {
      addTo(ownNet, r.coin, new Decimal(r.net));
      ownRefs.add(`${r.source}:${r.source_id}`);
      ownKeys.add(key);
    } else {
      otherKeys.add(key);
    }
  }
  return {
    ledger: sumsOf(sums), ownNet, ownRefs, outsideRefs, outsideUidRefs, ownCoinTrackerKeys: ownKeys, otherCoinTrackerKeys: otherKeys, borrowRepayNet,
    spotFills: Number(fills.rows[0]!.n), fees, coinTrackerFees, walletLedger: sumsOf(walletSums),
  };
}

/** Per-coin sums less others: CoinTracker's file documents that it leaves borrow and repay out. */
function minus(a: Record<string, string>, ...bs: Map<string, Decimal>[]): Record<string, string> {
  const out = new Map(Object.entries(a).map(([k, v]) => [k, new Decimal(v)]));
  for (const b of bs) for (const [k, d] of b) addTo(out, k, d.neg());
  return sumsOf(out);
}

describe.each(['UTC', 'Asia/Tokyo'])('tax-tool checkers, a whole year in %s', (tz) => {
  let t: Truth;
  let period: ReturnType<typeof reportPeriod>;
  let fromUtc: string;
  let toUtc: string;

  beforeAll(async () => {
    period = reportPeriod({ year, tz });
    const { manifest } = await runReports({ databaseUrl: env.fresh.url, format: 'native', period, outDir: path.join(outRoot, `native-${tz.replace('/', '-')}`) });
    ({ fromUtc, toUtc } = manifest.parameters);
    t = await truth(fromUtc, toUtc);
  }, 120_000);

  it('the sandbox year holds many own-account movements of every kind, trades and fees', () => {
    const kinds = new Set([...t.ownRefs].map((r) => r.split(':')[0]));
    expect([...kinds]).toEqual(expect.arrayContaining(['deposits', 'futures_bills', 'margin_records', 'transfers']));
    expect(t.ownRefs.size).toBeGreaterThan(30);
    // Internal transfers to or from another user's UID (one leg outside) exist too.
    expect(t.outsideUidRefs.size).toBeGreaterThan(0);
    expect(t.spotFills).toBeGreaterThan(50);
    expect(t.fees.size).toBeGreaterThan(2);
  });

  it('own-account movements cancel: per coin over the period, and nothing is listed as unmatched', async () => {
    expect(sumsOf(t.ownNet)).toEqual({});
    const unmatched = await sql<{ coin: string }>`SELECT coin FROM own_movement_imbalance`.execute(env.fresh.db);
    expect(unmatched.rows).toEqual([]);
    const quality = parse(await readFile(path.join(outRoot, `native-${tz.replace('/', '-')}`, 'data-quality.csv')), { columns: true }) as Record<string, string>[];
    expect(quality.length).toBeGreaterThan(0);
    expect(quality.filter((r) => r.kind === 'own_movement_unmatched')).toEqual([]);
  });

  it.each(['koinly', 'cointracker', 'cointracking', 'ctc'] as const)('%s: the tool would tax what happened', async (format) => {
    const outDir = path.join(outRoot, `${format}-${tz.replace('/', '-')}`);
    const { manifest } = await runReports({ databaseUrl: env.fresh.url, format, period, outDir });
    const rows = parse(await readFile(path.join(outDir, `${format}.csv`)), { columns: true }) as Record<string, string>[];
    const view = views[format](rows);
    expect(rows.length).toBeGreaterThan(100);
    if (format === 'ctc') expect(new Set(rows.map((r) => r.ID)).size, 'CTC IDs are unique').toBe(rows.length);

    // No own-account movement becomes a disposal, income or a gain.
    const taxed = [...view.disposals, ...view.income, ...view.otherGains];
    if (format === 'cointracker') {
      const hit = taxed.filter((e) => t.ownCoinTrackerKeys.has(e.ref) && !t.otherCoinTrackerKeys.has(e.ref));
      expect(hit.map((e) => e.ref)).toEqual([]);
    } else {
      expect(taxed.filter((e) => t.ownRefs.has(e.ref)).map((e) => e.ref)).toEqual([]);
    }

    // Movements with one leg outside stay in the file as the tool's plain deposit or withdrawal:
    // never income (CoinTracker excepted: it documents an unpaired Receive as Other Income).
    if (format !== 'cointracker') {
      const seen = new Set([...view.acquisitions, ...view.disposals, ...view.nonTaxable].map((e) => e.ref));
      expect([...t.outsideRefs].filter((r) => !seen.has(r))).toEqual([]);
      expect(view.income.filter((e) => t.outsideRefs.has(e.ref)).map((e) => e.ref)).toEqual([]);
    }

    // The balance per coin the tool would hold is the ledger's. The own-account movements a file
    // leaves out net to zero (the manifest says so too); CoinTracker's file alone documents one
    // more omission, margin borrow and repay (no CSV tag for a loan).
    expect(sumsOf(new Map(Object.entries(manifest.coverage.ownAccountNet).map(([c, n]) => [c, new Decimal(n)])))).toEqual({});
    expect(Object.keys(manifest.coverage.ownAccountNet).length, 'own-account movements in the period').toBeGreaterThan(0);
    const expected = format === 'cointracker' ? minus(t.ledger, t.borrowRepayNet) : t.ledger;
    expect(sumsOf(view.balances)).toEqual(expected);
    // Per wallet: CoinTracking keeps one per `<account> <wallet>`; the others are one wallet (the
    // file), so their per-coin balance above is the per-wallet one.
    if (format === 'cointracking') expect(sumsOf(view.walletBalances)).toEqual(t.walletLedger);

    // Every spot fill is one trade: one disposal and one acquisition, exactly once.
    expect(view.trades.length).toBe(t.spotFills);
    expect(new Set(view.trades).size).toBe(view.trades.length);

    // Every fee exactly once: the fees the tool sees, per coin, are the ledger's.
    const fees = new Map<string, Decimal>();
    for (const f of view.fees) addTo(fees, f.coin, f.amount);
    expect(sumsOf(fees)).toEqual(sumsOf(format === 'cointracker' ? t.coinTrackerFees : t.fees));
  }, 120_000);
});

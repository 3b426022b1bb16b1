import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { testSyncOptions } from '../support/testSync.js';
import { runSync } from '../../src/extract/runSync.js';
import { runGains } from '../../src/gains/runGains.js';
import { LedgerStream } from '../../src/gains/ledgerStream.js';
import type { ValuedRow } from '../../src/gains/ledgerEvents.js';
import { GainsDecimal } from '../../src/gains/gainsDecimal.js';
import { bindNamedParameters } from '../../src/reports/bindNamedParameters.js';
import { defaultReportsDir } from '../../src/reports/runReports.js';
import { gainsOutcome } from './gainsOutcome.js';
import { tempFolder } from '../support/tempFolder.js';

const env = sandboxWithDatabase();

// A sandbox account's whole history, synced, then gains for every year it spans: no lot is lost
// or counted twice across years. What was paid for acquisitions equals the cost matched to
// disposals plus the cost still held, and what disposals fetched equals the proceeds matched.
// Exact: a pro-rata share is rounded once and its remainder kept (docs/gains.md, "Exact sums").
describe('gains after a sandbox sync', () => {
  it('paid = matched cost + cost still held; received = matched proceeds; gains = proceeds - cost', async () => {
    const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
    expect(result.status).toBe('ok');
    const { rows } = await sql<Omit<ValuedRow, 'ms'> & { ms: string }>`
      SELECT v.account_uid, v.wallet, v.coin, (extract(epoch FROM v.ts) * 1000)::bigint::text AS ms,
             to_char(v.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, v.amount::text AS amount, v.kind, v.source,
             v.source_id, v.leg, v.counterparty, v.order_id, v.value::text AS value, NULL AS label
      FROM ledger_valued('USD') v ORDER BY v.ts, v.source, v.source_id, v.leg`.execute(env.fresh.db);
    expect(rows.length).toBeGreaterThan(50);

    // What the events say was paid and received (ledgerEvents is tested on its own).
    let paid = new GainsDecimal(0);
    let received = new GainsDecimal(0);
    // Grouped and ordered as runGains reads them (LedgerStream: arrivals last in an instant).
    const stream = new LedgerStream('USD');
    const use = (outcomes: ReturnType<LedgerStream['finish']>) => {
      for (const e of outcomes.flatMap((o) => o.events)) {
        if (e.type === 'acquire') paid = paid.plus(e.cost);
        if (e.type === 'dispose') received = received.plus(e.proceeds);
      }
    };
    for (const raw of rows) use(stream.push({ ...raw, ms: Number(raw.ms) }));
    use(stream.finish());
    expect(paid.gt(0) && received.gt(0)).toBe(true);

    const first = Number(rows[0]!.day.slice(0, 4));
    const last = Number(rows[rows.length - 1]!.day.slice(0, 4));
    let cost = new GainsDecimal(0);
    let proceeds = new GainsDecimal(0);
    let gains = new GainsDecimal(0);
    let held = new GainsDecimal(0);
    for (let year = first; year <= last; year++) {
      const { runId, summary } = await runGains({ databaseUrl: env.fresh.url, rules: 'fifo', year, fiat: 'USD', tz: 'UTC', outDir: tempFolder('gains-sb-') });
      const t = await sql<{ cost: string; proceeds: string; gain: string; bad: number }>`
        SELECT coalesce(sum(cost), 0)::text AS cost, coalesce(sum(proceeds), 0)::text AS proceeds, coalesce(sum(gain), 0)::text AS gain,
               count(*) FILTER (WHERE gain <> proceeds - cost + denied_loss)::int AS bad
        FROM gains_matches WHERE run_id = ${runId}::bigint`.execute(env.fresh.db);
      expect(t.rows[0]!.bad).toBe(0);
      cost = cost.plus(t.rows[0]!.cost);
      proceeds = proceeds.plus(t.rows[0]!.proceeds);
      gains = gains.plus(t.rows[0]!.gain);
      if (year === last) held = summary.holdings.reduce((s, h) => s.plus(h.cost), new GainsDecimal(0));
      // Traceability: every match reaches its ledger rows and their raw records (reports/gains-trace.sql).
      const trace = bindNamedParameters(await readFile(path.join(defaultReportsDir, 'gains-trace.sql'), 'utf8'), { run_id: runId });
      const traced = await sql.raw<{ seq: number; raw: unknown }>(trace.text.replace('$1::text', `'${runId}'`)).execute(env.fresh.db);
      const disposals = await sql<{ n: number }>`SELECT count(*)::int AS n FROM gains_matches WHERE run_id = ${runId}::bigint`.execute(env.fresh.db);
      expect(new Set(traced.rows.map((x) => x.seq)).size).toBe(disposals.rows[0]!.n);
      expect(traced.rows.every((x) => x.raw !== null)).toBe(true);
    }
    // Every income kind the ledger holds shows up in income.csv's table under its category.
    const categories: Record<string, string> = { realized_pnl: 'futures_realized_pnl', funding_fee: 'funding', interest: 'margin_interest', compensate: 'risk_fund_compensation', confiscated: 'confiscation', liquidation_fee: 'liquidation_fee' };
    const kinds = await sql<{ kind: string }>`SELECT DISTINCT kind FROM ledger WHERE kind IN ('realized_pnl', 'funding_fee', 'interest', 'compensate', 'confiscated', 'liquidation_fee')`.execute(env.fresh.db);
    const found = await sql<{ category: string }>`SELECT DISTINCT category FROM gains_income`.execute(env.fresh.db);
    expect(kinds.rows.length).toBeGreaterThan(0);
    expect(found.rows.map((r) => r.category)).toEqual(expect.arrayContaining(kinds.rows.map((r) => categories[r.kind])));
    const close = (a: GainsDecimal, b: GainsDecimal) => expect(a.toFixed()).toBe(b.toFixed());
    close(cost.plus(held), paid);
    close(proceeds, received);
    close(gains, proceeds.minus(cost));
  });

  // Issue 24: a large ledger is read in slices of time (runGains, queryBatchesInTurn); the slices
  // must be the one query they replace, over every source an exchange account's ledger has.
  it('reads the synced ledger in 7 slices of time with the same files and rows as in one query', async () => {
    const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
    expect(result.status).toBe('ok');
    const years = await sql<{ y: number; n: number }>`SELECT extract(year FROM ts)::int AS y, count(*)::int AS n FROM ledger GROUP BY 1 ORDER BY 2 DESC LIMIT 1`.execute(env.fresh.db);
    const year = years.rows[0]!.y;
    for (const rules of ['uk', 'us', 'fifo'] as const) {
      const options = { databaseUrl: env.fresh.url, rules, year, fiat: 'USD', tz: 'UTC' };
      const one = await gainsOutcome(env.fresh.db, { ...options, readSlices: 1 });
      expect(one.disposals, rules).toBeGreaterThan(0);
      const sliced = await gainsOutcome(env.fresh.db, { ...options, readSlices: 7 });
      expect(sliced.slices).toBe(7);
      expect({ ...sliced, slices: 1 }, `${rules} ${year}`).toEqual(one);
    }
  });

  // The sandbox's books balance from an opening balance the world declares (every coin came in as a
  // deposit with a market value, or was bought), so no disposal in any year may lack a cost. Under
  // per-wallet pools (the US from 2025, Rev. Proc. 2024-28) lots follow own-account transfers; a
  // futures or margin wallet records only its own side of a transfer from spot, and that side can
  // sort before the spot transfer feeding it. Before the TRANSIT claims in lotMatcher.ts, each such
  // wallet got no lots and its later disposals had no cost (the seed-1 small demo: 629 of them).
  it('no disposal lacks a cost under per-wallet pools (us, fifo --pools wallet)', async () => {
    const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
    expect(result.status).toBe('ok');
    const span = await sql<{ first: number; last: number; moves: number }>`
      SELECT extract(year FROM min(ts))::int AS first, extract(year FROM max(ts))::int AS last,
             count(*) FILTER (WHERE kind IN ('transfer_in', 'transfer_out') AND source IN ('futures_bills', 'margin_records'))::int AS moves
      FROM ledger`.execute(env.fresh.db);
    const { first, last, moves } = span.rows[0]!;
    // The case exists in this world: futures or margin wallets fed by transfers.
    expect(moves).toBeGreaterThan(0);
    for (const [rules, pools] of [['us', undefined], ['fifo', 'wallet']] as const) {
      for (let year = first; year <= last; year++) {
        const { runId } = await runGains({ databaseUrl: env.fresh.url, rules, year, fiat: 'USD', tz: 'UTC', ...(pools ? { pools } : {}), outDir: tempFolder('gains-nc-') });
        const n = await sql<{ disposals: number; nocost: number }>`
          SELECT count(*)::int AS disposals, count(*) FILTER (WHERE basis = 'no-cost')::int AS nocost
          FROM gains_matches WHERE run_id = ${runId}::bigint`.execute(env.fresh.db);
        expect({ rules, year, nocost: n.rows[0]!.nocost }).toEqual({ rules, year, nocost: 0 });
      }
    }
  });
});

import type pg from 'pg';
import type { Match, OpenHolding } from './gainsEvent.js';
import type { GainsProblem, IncomeItem } from './ledgerEvents.js';
import { daysBetween } from '../normalize/calendarDate.js';
import { ZERO } from './gainsDecimal.js';
import { textArrayLiteral } from '../db/sqlText.js';

/** The parameters that name a run (a rerun with the same ones replaces it). */
export interface GainsRunKey {
  rules: string;
  taxYear: number;
  fiat: string;
  tz: string;
  account: string;
  pools: string;
  from: string;
  to: string;
  /** Demo-trading rows included (`--include-demo`); a run with them never replaces one without. */
  includeDemo: boolean;
}

const BATCH = 2_000;

/**
 * Writes one gains run into gains_runs and its child tables, in batches, inside the caller's
 * transaction. Replaces an earlier run with the same parameters.
 *
 * @example
 * const store = await GainsStore.open(client, key); await store.match(m, 's104'); await store.close();
 */
export class GainsStore {
  private matches: unknown[][] = [];
  private income: unknown[][] = [];
  private problems: unknown[][] = [];
  private seq = { match: 0, income: 0, problem: 0, holding: 0 };
  // The batch sent and not yet answered: at most one. The next batch is sent once it is answered,
  // so the matcher works while PostgreSQL stores the last batch, and the client never holds two
  // queries at once (pg's DeprecationWarning for that would reach the user's output; pg 9 refuses it).
  private inFlight: Promise<unknown>[] = [];

  private constructor(private readonly client: pg.ClientBase, readonly runId: string) {}

  static async open(client: pg.ClientBase, key: GainsRunKey): Promise<GainsStore> {
    // Two runs of the same request at once (two accountants, a portal download beside a CLI run)
    // both deleted the old row, then the second's INSERT failed on gains_runs_key ("unexpected
    // error ... This is a bug"). The second now waits here for the first to commit, then
    // replaces its rows, as any rerun does.
    const lockKey = JSON.stringify(['gains_runs', key.rules, key.taxYear, key.fiat, key.tz, key.account, key.pools, key.includeDemo]);
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey]);
    await client.query('DELETE FROM gains_runs WHERE rules = $1 AND tax_year = $2 AND fiat = $3 AND tz = $4 AND account = $5 AND pools = $6 AND include_demo = $7',
      [key.rules, key.taxYear, key.fiat, key.tz, key.account, key.pools, key.includeDemo]);
    const { rows } = await client.query<{ run_id: string }>(
      `INSERT INTO gains_runs (rules, tax_year, fiat, tz, account, pools, period_from, period_to, include_demo)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING run_id::text`,
      [key.rules, key.taxYear, key.fiat, key.tz, key.account, key.pools, key.from, key.to, key.includeDemo]);
    return new GainsStore(client, rows[0]!.run_id);
  }

  async match(m: Match, cls: string): Promise<void> {
    this.matches.push([
      ++this.seq.match, m.asset, m.quantity.toFixed(), m.acquiredDay, m.disposedDay, m.disposedTs, m.proceeds.toFixed(), m.cost.toFixed(),
      m.gain.toFixed(), holdingDays(m), m.basis, cls, m.pool,
      m.disposalRef, m.acquisitionRef, (m.disposalCosts ?? ZERO).toFixed(), (m.deniedLoss ?? ZERO).toFixed(),
    ]);
    if (this.matches.length >= BATCH) await this.flushMatches();
  }

  async incomeItem(i: IncomeItem): Promise<void> {
    this.income.push([++this.seq.income, i.category, i.asset, i.quantity.toFixed(), i.value === null ? null : i.value.toFixed(), i.ms, i.day, i.pool, i.ref]);
    if (this.income.length >= BATCH) await this.flushIncome();
  }

  async problem(p: GainsProblem): Promise<void> {
    this.problems.push([++this.seq.problem, p.problem, p.ref, p.detail]);
    if (this.problems.length >= BATCH) await this.flushProblems();
  }

  async holdings(hs: OpenHolding[]): Promise<void> {
    await this.settle(0);
    for (let i = 0; i < hs.length; i += BATCH) {
      const part = hs.slice(i, i + BATCH).map((h) => [++this.seq.holding, h.asset, h.pool, h.quantity.toFixed(), h.cost.toFixed(), h.acquiredDay || null, h.ref]);
      await this.client.query(
        `INSERT INTO gains_holdings (run_id, seq, asset, pool, quantity, cost, acquired_day, refs)
         SELECT $1, s, a, p, q::numeric, c::numeric, d::date, string_to_array(r, ';')
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS t(s, a, p, q, c, d, r)`,
        [this.runId, ...columns(part, 7)]);
    }
  }

  async close(): Promise<void> {
    await this.flushMatches();
    await this.flushIncome();
    await this.flushProblems();
    await this.settle(0);
  }

  // Waits for the batch before, then sends this one without waiting for its answer. A failed batch
  // fails the next call (and close), in the caller's transaction.
  private async send(text: string, values: unknown[]): Promise<void> {
    await this.settle(0);
    const sent = this.client.query(text, values);
    sent.catch(() => {});
    this.inFlight.push(sent);
  }

  /** Waits until no batch is in flight, ignoring a failure (the caller is failing already). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }

  private async settle(limit: number): Promise<void> {
    while (this.inFlight.length > limit) await this.inFlight.shift();
  }

  private async flushMatches(): Promise<void> {
    if (this.matches.length === 0) return;
    const rows = this.matches;
    this.matches = [];
    await this.send(
      `INSERT INTO gains_matches (run_id, seq, asset, quantity, acquired_day, disposed_day, disposed_at, proceeds, cost, gain,
                                  holding_days, basis, class, pool, disposal_refs, acquisition_refs, disposal_costs, denied_loss)
       SELECT $1, s, a, q::numeric, ad::date, dd::date, to_timestamp(ms::double precision / 1000), p::numeric, c::numeric, g::numeric,
              h, b, k, pl, string_to_array(dr, ';'), CASE WHEN ar = '' THEN '{}'::text[] ELSE string_to_array(ar, ';') END,
              dc::numeric, dl::numeric
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[],
                   $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
            AS t(s, a, q, ad, dd, ms, p, c, g, h, b, k, pl, dr, ar, dc, dl)`,
      [this.runId, ...columns(rows, 17)]);
  }

  private async flushIncome(): Promise<void> {
    if (this.income.length === 0) return;
    const rows = this.income;
    this.income = [];
    await this.send(
      `INSERT INTO gains_income (run_id, seq, category, asset, quantity, value, ts, day, pool, ref)
       SELECT $1, s, c, a, q::numeric, v::numeric, to_timestamp(ms::double precision / 1000), d::date, p, r
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[])
            AS t(s, c, a, q, v, ms, d, p, r)`,
      [this.runId, ...columns(rows, 9)]);
  }

  private async flushProblems(): Promise<void> {
    if (this.problems.length === 0) return;
    const rows = this.problems;
    this.problems = [];
    await this.send(
      `INSERT INTO gains_problems (run_id, seq, problem, ref, detail)
       SELECT $1, s, p, r, d FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS t(s, p, r, d)`,
      [this.runId, ...columns(rows, 4)]);
  }
}

/**
 * The rows' n columns, each as an array literal for an `unnest($k::type[])` parameter: the bytes
 * node-postgres would write for the array (textArrayLiteral, held to its prepareValue in
 * test/db/textArrayLiteral.test.ts; a number as its String()), without its two RegExp replaces per
 * element: a 2,000-match batch's 17 arrays took ~4 ms instead of ~10.5 (issue 24, BENCHMARKS.md,
 * session 16).
 */
function columns(rows: unknown[][], n: number): string[] {
  const cols: (string | null)[][] = Array.from({ length: n }, () => []);
  for (const row of rows) {
    for (let i = 0; i < n; i++) {
      const v = row[i];
      cols[i]!.push(v === null || v === undefined ? null : String(v));
    }
  }
  return cols.map(textArrayLiteral);
}

// Days from acquisition to disposal; none for a pool share, and none when the acquisition matched
// comes after the disposal (the UK 30-day rule): a holding period cannot be negative.
function holdingDays(m: Match): number | null {
  if (m.acquiredDay === null || m.acquiredDay > m.disposedDay) return null;
  return daysBetween(m.acquiredDay, m.disposedDay);
}

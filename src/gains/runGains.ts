import { claimReportOutput, fileWriteError, reportOutput } from '../reports/reportOutput.js';
import type { ReportOutput } from '../reports/reportOutput.js';
import { readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type pg from 'pg';
import { createClient } from '../db/pools.js';
import { TradeledgerError } from '../errors.js';
import { cancelOnAbort } from '../db/cancelOnAbort.js';
import { bindNamedParameters } from '../reports/bindNamedParameters.js';
import { streamQueryToCsv } from '../reports/streamQueryToCsv.js';
import { defaultReportsDir } from '../reports/runReports.js';
import type { ManifestFile } from '../reports/reportManifest.js';
import { GainsDecimal, ZERO } from './gainsDecimal.js';
import { LedgerStream } from './ledgerStream.js';
import { queryBatchesInTurn } from './queryBatches.js';
import type { LedgerOutcome, ValuedRow } from './ledgerEvents.js';
import { ruleSet } from './ruleSets.js';
import type { RuleSetName } from './ruleSets.js';
import type { Match } from './gainsEvent.js';
import { GainsStore } from './gainsStore.js';
import { GainsSummaryBuilder } from './gainsSummary.js';
import type { GainsSummary } from './gainsSummary.js';
import { gainsSummaryText } from './gainsSummaryText.js';
import { incompleteFigures, missingFxRates } from './incompleteFigures.js';
import { readLotSelections } from './lotSelections.js';
import type { BrokerReporting } from './brokerReporting.js';
import { demoTreatment, readDemoAccounts } from '../reports/demoAccounts.js';
import { addDays } from '../normalize/calendarDate.js';
import { gainsCsvFiles, gainsFiles, gainsLabel } from './gainsRequest.js';
import type { PoolChoice } from './gainsRequest.js';

/** Options of {@link runGains}. */
export interface RunGainsOptions {
  databaseUrl: string;
  rules: RuleSetName;
  /** The tax year: for the UK the one starting 6 April of it, for Australia 1 July of it. */
  year: number;
  fiat: string;
  tz: string;
  /** One account uid (or imported wallet name); '' for all. */
  account?: string;
  /** The --pools choice, where the rule set lets the user choose (`RuleSet.pooling` 'flag'): one pool across wallets, or one per account/wallet. */
  pools?: PoolChoice;
  outDir?: string;
  /** Replace files already in the output folder (default: refuse, naming them; never through a symlink). */
  force?: boolean;
  reportsDir?: string;
  /** US specific identification: a lot-selection CSV (lotSelections.ts), validated before any work. */
  lots?: string;
  /**
   * US Form 8949: how each account's broker reported its sales (account uid or imported wallet
   * name -> 'basis-reported' | 'basis-not-reported' | 'none'), from the config's `form1099DA`;
   * the box follows it (reports/gains-form-8949.sql). Absent: 'none' (box I/L, C/F before 2025).
   */
  brokerReporting?: Record<string, BrokerReporting>;
  /**
   * Include demo-trading (paper) accounts' rows (`--include-demo`), valued 0. Default false: they
   * are left out, and summary.json / summary.txt / manifest.json name them and say why.
   */
  includeDemo?: boolean;
  onFile?: (file: ManifestFile) => void;
  /** Told how the run goes (the CLI's status line on a terminal); called often, so it must be cheap. */
  onProgress?: (progress: GainsProgress) => void;
  /** Aborting ends the run's connections at once; the run then fails and writes nothing. */
  signal?: AbortSignal;
  /**
   * How many slices of time the valued ledger is read in (1: one query). Default: one per
   * SLICE_ROWS rows the ledger's tables hold, at most MAX_SLICES. Tests and benchmarks set it.
   */
  readSlices?: number;
}

/**
 * How far a run is: `reading` until the valued ledger's first rows arrive (PostgreSQL values and
 * sorts the whole ledger first), `matching` while they are matched (rows read so far and the
 * local day of the last one; the tax year's matches so far), then `writing` the
 * holdings and the files.
 */
export interface GainsProgress {
  stage: 'reading' | 'matching' | 'writing';
  rows: number;
  day: string | null;
  /** Matches of the tax year so far (gains.csv's rows). */
  matches: number;
}

/** What a run wrote. */
export interface RunGainsResult {
  runId: string;
  outDir: string;
  summary: GainsSummary;
  files: ManifestFile[];
  /** How many slices of time the valued ledger was read in (RunGainsOptions.readSlices). */
  readSlices: number;
  /** Valued ledger rows read (up to the year's end and its look-ahead); 0: the ledger holds nothing up to then. */
  rowsRead: number;
}

// Rows per batch handed to the matcher (queryBatches). A batch is alive while it is matched, so
// every young-generation collection in that time copies it: at 5,000 rows (~5 MB of strings and
// arrays) a 400,000-row run spent ~1 s in 175 scavenges and promoted ~100 MB per 1.5 s; at 500 the
// process took about a fifth less CPU (medians 5.90 -> 4.70 CPU-s, uk) and ~45 MB less peak memory
// (issue 24, BENCHMARKS.md, session 15).
const BATCH_ROWS = 500;

/**
 * What every read of the valued ledger shares: $1 fiat, $2 zone, $3 account ('' for all), $4 the
 * local date to read up to (exclusive), $5 include demo, and the slice of time read, [$6, $7)
 * ('-infinity' and 'infinity' for all of it), in time order. An imported line's ledger rows have
 * its own time, so the label join reads only the slice's lines.
 *
 * The time bounds are given to ledger_valued only, which applies them to every branch: repeating
 * them on v.ts outside made PostgreSQL count the same bounds three times (estimated 131 rows of a
 * slice's ~33,000) and join the labels by one index probe per row, where a hash of the slice's
 * lines costs less: a slice took ~15% less time (issue 24, BENCHMARKS.md, session 16).
 */
const VALUED_LEDGER_FROM = `
FROM ledger_valued($1, $6::timestamptz, least($7::timestamptz, $4::timestamp AT TIME ZONE $2), $5::boolean) v
LEFT JOIN imported_transactions it ON v.source = 'imported_transactions' AND it.source_id = v.source_id
  AND it.ts >= $6::timestamptz AND it.ts < $7::timestamptz
WHERE ($3 = '' OR v.account_uid = $3
       -- an imported opening balance (sql/schema/views/reconciliation.sql) belongs to the account it opens
       OR (v.source = 'imported_transactions' AND v.order_id LIKE 'opening-balance:' || $3 || ':%'))
ORDER BY v.ts, v.source, v.source_id, v.leg`;

// a correction's classification (sql/migrations/0067_ledger_corrections.sql) speaks instead of an imported line's label
const LABEL = 'CASE WHEN v.classification IS NOT NULL THEN correction_label(v.classification) ELSE it.label END';

/**
 * The valued ledger the runner reads ({@link VALUED_LEDGER_FROM}) with one column per ValuedRow
 * field, named as the fields: the form the packed read is held equal to
 * (test/gains/packedValuedRow.test.ts) and that tests read by name. The runner itself reads
 * {@link VALUED_LEDGER_PACKED_SQL}.
 */
export const VALUED_LEDGER_SQL = `
SELECT v.account_uid, v.wallet, v.coin, (extract(epoch FROM v.ts) * 1000)::bigint::text AS ms,
       to_char(v.ts AT TIME ZONE $2, 'YYYY-MM-DD') AS day, v.amount::text AS amount, v.kind, v.source,
       v.source_id, v.leg, v.counterparty, v.order_id, v.value::text AS value, v.price_source,
       ${LABEL} AS label,
       it.description, v.correction_id::text AS correction_id, v.classification, v.other_side
${VALUED_LEDGER_FROM}`;

// The separator of the packed column (E'\x1f' in VALUED_LEDGER_PACKED_SQL): a control character
// that no number, date or word of the ledger's closed sets holds.
const UNIT = '\x1f';

/**
 * The same rows as {@link VALUED_LEDGER_SQL}, as the runner reads them: the nine fields that are
 * numbers, dates or words of a closed set (ms, day, amount, kind, source, leg, value, price_source,
 * correction_id: the ledger view's and ledger_valued's own literals, sql/schema/views/ledger.sql)
 * in one text column, U+001F between them and '' for NULL (none of them is ever ''), then the
 * ten that can hold any text (names, ids, labels, descriptions) each in its own column. node-postgres
 * makes one string per column of every row; nine fewer per row took the reading process's CPU for
 * 200,550 rows from ~1,170 to ~740 ms (issue 24, BENCHMARKS.md, session 16). {@link packedValuedRow}
 * reads a row back and refuses one whose packed column does not split into nine.
 */
export const VALUED_LEDGER_PACKED_SQL = `
SELECT concat_ws(E'\\x1f', (extract(epoch FROM v.ts) * 1000)::bigint::text, to_char(v.ts AT TIME ZONE $2, 'YYYY-MM-DD'),
         coalesce(v.amount::text, ''), coalesce(v.kind, ''), coalesce(v.source, ''), coalesce(v.leg, ''),
         coalesce(v.value::text, ''), coalesce(v.price_source, ''), coalesce(v.correction_id::text, '')) AS packed,
       v.account_uid, v.wallet, v.coin, v.source_id, v.counterparty, v.order_id, ${LABEL} AS label,
       it.description, v.classification, v.other_side
${VALUED_LEDGER_FROM}`;

const orNull = (s: string): string | null => (s === '' ? null : s);

/**
 * One row of VALUED_LEDGER_PACKED_SQL (text or null, in its column order) as a ValuedRow, equal to
 * what VALUED_LEDGER_SQL gives for it (test/gains/packedValuedRow.test.ts).
 *
 * @example
 * const row = packedValuedRow(textRow); row.amount; // '-1.5'
 */
export function packedValuedRow(r: (string | null)[]): ValuedRow {
  const p = (r[0] ?? '').split(UNIT);
  if (p.length !== 9) {
    throw new TradeledgerError('GAINS_ROW_UNREADABLE', `a row of the valued ledger (${r[1] ?? '?'}, ${r[4] ?? '?'}) has its packed fields in ${p.length} parts, not 9`, {
      kind: 'internal', hint: 'A ledger kind, source, leg or price source holds the character U+001F; report this with the output of `tradeledger status`.',
    });
  }
  return {
    account_uid: r[1]!, wallet: r[2]!, coin: r[3]!, ms: Number(p[0]), day: p[1]!, amount: orNull(p[2]!)!, kind: orNull(p[3]!)!,
    source: orNull(p[4]!)!, source_id: r[4]!, leg: orNull(p[5]!)!, counterparty: r[5]!, order_id: r[6]!, value: orNull(p[6]!),
    price_source: orNull(p[7]!), label: r[7]!, description: r[8]!, correction_id: orNull(p[8]!), classification: r[9]!, other_side: r[10]!,
  };
}

// The ledger is read in slices of time when it is large: one per SLICE_ROWS rows of its tables
// (PostgreSQL's estimate), at most MAX_SLICES. Each slice is valued and sorted by itself, on one of
// two connections in one snapshot, the next while the last is matched: the run waited 2.4-2.5 s
// for the whole sorted ledger of 400,100 rows before its first row (issue 24, BENCHMARKS.md).
const SLICE_ROWS = 25_000;
const MAX_SLICES = 16;

// Each slice is sorted by PostgreSQL before its first row is sent. At the default work_mem (4 MB)
// a slice of ~68,000 valued rows (~21 MB) was sorted on disk (an external merge of 15.9 MB of
// temporary files); in memory the slice's query took 15-20% less time (EXPLAIN ANALYZE, 3 runs
// each: 350-440 ms -> 278-378 ms; issue 24, BENCHMARKS.md, session 18). For the read's two
// connections only, for their transactions only (SET LOCAL): a larger slice still spills, as before.
const READ_WORK_MEM = `SET LOCAL work_mem = '64MB'`;

/**
 * The earliest time of the ledger's source tables (each by its time index), the end of the read
 * ($1 the local date, $2 the zone) in epoch milliseconds, and the rows those tables hold. Only the
 * slices' sizes depend on it: the first slice starts at -infinity and the last ends at the read's
 * end, so a table missing here changes no row that is read.
 */
const SLICE_PLAN_SQL = `
SELECT (extract(epoch FROM (SELECT min(t) FROM (
          SELECT min(c_time) AS t FROM deposits UNION ALL SELECT min(c_time) FROM withdrawals
          UNION ALL SELECT min(ts) FROM transfers UNION ALL SELECT min(ts) FROM margin_records
          UNION ALL SELECT min(c_time) FROM futures_bills UNION ALL SELECT min(c_time) FROM spot_fills
          UNION ALL SELECT min(c_time) FROM fees UNION ALL SELECT min(ts) FROM imported_transactions) m)) * 1000)::float8 AS first_ms,
       (extract(epoch FROM ($1::timestamp AT TIME ZONE $2)) * 1000)::float8 AS end_ms,
       (SELECT coalesce(sum(greatest(c.reltuples, 0)), 0) FROM pg_class c
        WHERE c.oid IN ('deposits'::regclass, 'withdrawals'::regclass, 'transfers'::regclass, 'margin_records'::regclass,
                        'futures_bills'::regclass, 'spot_fills'::regclass, 'fees'::regclass, 'imported_transactions'::regclass))::float8 AS rows`;

/**
 * The bounds of `slices` slices of time from `firstMs` to `endMs`, equally long: '-infinity',
 * then the inner bounds as ISO times, then 'infinity'. One slice (['-infinity', 'infinity'])
 * when there is nothing to cut.
 *
 * @example
 * sliceBounds(Date.parse('2024-01-01Z'), Date.parse('2025-01-01Z'), 2); // ['-infinity', '2024-07-02T00:00:00.000Z', 'infinity']
 */
export function sliceBounds(firstMs: number | null, endMs: number, slices: number): string[] {
  const inner: string[] = [];
  if (firstMs !== null && Number.isFinite(firstMs) && Number.isFinite(endMs) && firstMs < endMs) {
    let last = firstMs;
    for (let k = 1; k < slices; k++) {
      const at = Math.floor(firstMs + ((endMs - firstMs) * k) / slices);
      if (at <= last || at >= endMs) continue;
      inner.push(new Date(at).toISOString());
      last = at;
    }
  }
  return ['-infinity', ...inner, 'infinity'];
}

/**
 * Computes a tax year's gains: streams the valued ledger (ledger_valued) in time order from the
 * first row to the end of the year (UK: 31 days more, for the 30-day rule), turns each ledger
 * transaction into events (ledgerEvents), matches them under the rule set, stores the year's
 * matches, income, holdings and problems (gains_* tables), and writes gains.csv, income.csv,
 * gains-data-quality.csv, form-8949.csv (US), summary.json, summary.txt and manifest.json.
 *
 * @example
 * await runGains({ databaseUrl: url, rules: 'uk', year: 2025, fiat: 'GBP', tz: 'Europe/London' });
 */
export async function runGains(options: RunGainsOptions): Promise<RunGainsResult> {
  const rules = ruleSet(options.rules);
  const fiat = options.fiat.toUpperCase();
  const account = options.account ?? '';
  const includeDemo = options.includeDemo ?? false;
  const pools = rules.pooling === 'rules' ? 'rules' : (options.pools ?? 'universal');
  const { from, to } = rules.taxYear(options.year);
  const readTo = addDays(to, rules.lookaheadDays);
  // The same rules as every report (reportOutput): the folder is checked before any work, an
  // existing file needs `force`, a symlinked target is refused, and the files appear only once
  // all of them are complete.
  if (options.lots !== undefined && !rules.specificIdentification) {
    throw new TradeledgerError('GAINS_BAD_FLAG', `--lots works only with --rules us, not --rules ${options.rules}`, {
      kind: 'config', hint: 'Drop --lots, or use --rules us (specific identification, Treas. Reg. 1.1012-1(j)).',
    });
  }
  const selections = options.lots === undefined ? undefined : await readLotSelections(options.lots);
  // The default folder is claimed (made by this run), so two runs started together never share it.
  const output = options.outDir !== undefined
    ? await reportOutput(options.outDir, gainsFiles(options.rules), options.force ?? false)
    : await claimReportOutput(path.join('tradeledger-reports', 'gains', gainsLabel({ year: options.year, rules: options.rules, fiat })), [], gainsFiles(options.rules));
  const outDir = output.dir;

  // Both connections are closed in `finally` whatever fails, the second connect included: a run
  // whose writer was refused ("too many clients") kept its reader open and never exited.
  const reader = createClient({ url: options.databaseUrl, name: 'gains-read' });
  const writer = createClient({ url: options.databaseUrl, name: 'gains-write' });
  // A second reader, in the first one's snapshot, for a ledger read in slices (made only then).
  let reader2: pg.Client | undefined;
  const detach = cancelOnAbort([reader, writer], options.signal);
  let detach2 = () => {};
  let connected = false;
  let opened: GainsStore | undefined;
  try {
    options.signal?.throwIfAborted();
    await reader.connect();
    await writer.connect();
    connected = true;
    await checkZone(reader, options.tz);
    await checkYearStarted(reader, options, rules);
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await reader.query(READ_WORK_MEM);
    const bounds = await readBounds(reader, options, readTo);
    if (bounds.length > 2) {
      // The slices after the first are read on a second connection too, in the same snapshot, so
      // that every slice sees the same ledger (pg_export_snapshot: valid while this transaction is open).
      const snapshot = String((await reader.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0]!.s);
      if (!/^[0-9A-Fa-f-]+$/.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
      reader2 = createClient({ url: options.databaseUrl, name: 'gains-read-2' });
      detach2 = cancelOnAbort([reader2], options.signal);
      await reader2.connect();
      await reader2.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await reader2.query(READ_WORK_MEM);
      await reader2.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
    }
    await writer.query('BEGIN');
    const store = opened = await GainsStore.open(writer, {
      rules: options.rules, taxYear: options.year, fiat, tz: options.tz, account, pools, from, to, includeDemo,
    });
    const matcher = rules.matcher(pools === 'wallet' ? 'wallet' : 'universal', selections);
    const summary = new GainsSummaryBuilder(options.rules);
    const income = new Map<string, GainsDecimal>();
    const problems: Record<string, number> = {};
    const inYear = (day: string) => day >= from && day < to;
    const progress = { stage: 'reading' as GainsProgress['stage'], rows: 0, day: null as string | null, matches: 0 };
    options.onProgress?.({ ...progress });
    const take = async (ms: Match[]) => {
      for (const m of ms) {
        if (!inYear(m.disposedDay)) continue;
        progress.matches++;
        const cls = rules.classify(m);
        summary.add(m, cls);
        await store.match(m, cls);
        if (m.basis === 'no-cost') problems.no_cost_basis = (problems.no_cost_basis ?? 0) + 1;
      }
    };

    // The corrections in force on the rows read (sql/migrations/0067_ledger_corrections.sql): the manifest says how many each file reflects.
    const corrections = new Set<string>();
    const stream = new LedgerStream(fiat);
    const handle = async (outcome: LedgerOutcome) => {
      for (const e of outcome.events) await take(matcher.push(e));
      for (const i of outcome.income) {
        if (!inYear(i.day)) continue;
        income.set(i.category, (income.get(i.category) ?? ZERO).plus(i.value ?? ZERO));
        await store.incomeItem(i);
      }
      for (const p of outcome.problems) {
        problems[p.problem] = (problems[p.problem] ?? 0) + 1;
        await store.problem(p);
      }
    };
    // One pass over the valued ledger, streamed (queryBatches: no cursor and no round trip per
    // batch; the socket waits while a batch is matched, so memory stays at about one batch), each
    // row's text straight into a ValuedRow (VALUED_LEDGER_PACKED_SQL, packedValuedRow).
    let handled: unknown;
    const onRows = async (rows: (string | null)[][]) => {
      let day: string | undefined;
      for (const r of rows) {
        const row = packedValuedRow(r);
        if (row.correction_id) corrections.add(row.correction_id);
        day = row.day;
        for (const o of stream.push(row)) await handle(o);
      }
      if (day !== undefined) {
        progress.stage = 'matching';
        progress.rows += rows.length;
        progress.day = day;
        options.onProgress?.({ ...progress });
      }
    };
    const slices = bounds.slice(1).map((to, i) => ({ text: VALUED_LEDGER_PACKED_SQL, values: [fiat, options.tz, account, readTo, includeDemo, bounds[i], to] }));
    await queryBatchesInTurn(reader2 ? [reader, reader2] : [reader], slices, BATCH_ROWS,
      (rows) => onRows(rows).catch((err: unknown) => { handled = err; throw err; }),
    ).catch((err: unknown) => {
      // Only the query's own failure is the valued ledger's; what matching or storing threw is itself.
      if (err === handled) throw err;
      throw new TradeledgerError('GAINS_QUERY_FAILED', `reading the valued ledger failed: ${err instanceof Error ? err.message : String(err)}`, {
        kind: 'database', cause: err, hint: 'Run `tradeledger db migrate`; if it persists, run SELECT * FROM ledger_valued(\'GBP\') LIMIT 1 in psql.',
      });
    });
    for (const o of stream.finish()) await handle(o);
    await take(matcher.finish());
    const demoAccounts = await readDemoAccounts(reader, account);
    // Rows valued 0 for want of a rate: say which of the fiat's rates were never imported.
    const missingRates = (problems.unpriced ?? 0) > 0 ? await missingFxRates(reader, fiat) : [];
    // A country's rules in another currency than its return's: say which rates the right run needs.
    const returnCurrency = rules.currency && rules.currency.code !== fiat
      ? { ...rules.currency, missingRates: await missingFxRates(reader, rules.currency.code) } : undefined;
    // Whether the period read is over, and synced to its end (the earliest watermark of the
    // accounts' streams: one behind means records the database may not have).
    const ends = (await reader.query<{ read_to: number; now_at: number; synced_to: number | null; lagging: string | null }>(
      `SELECT (extract(epoch FROM ($1::timestamp AT TIME ZONE $2)) * 1000)::float8 AS read_to, (extract(epoch FROM now()) * 1000)::float8 AS now_at,
              (extract(epoch FROM s.watermark) * 1000)::float8 AS synced_to, s.account_uid || ' ' || s.stream || CASE WHEN s.partition = 'all' THEN '' ELSE '/' || s.partition END AS lagging
       FROM (SELECT 1) one LEFT JOIN LATERAL (
         SELECT account_uid, stream, partition, watermark FROM sync_state
         WHERE ($3 = '' OR account_uid = $3) AND watermark IS NOT NULL ORDER BY watermark, account_uid, stream, partition LIMIT 1) s ON true`,
      [readTo, options.tz, account])).rows[0]!;
    const period = { lastDay: addDays(to, -1), readTo, tz: options.tz, readToMs: ends.read_to, nowMs: ends.now_at, syncedToMs: ends.synced_to, lagging: ends.lagging };
    if (reader2) await reader2.query('COMMIT');
    await reader.query('COMMIT');
    // A selection no disposal took (a later year's, or a mistyped id) is said, not silently dropped.
    for (const e of selections?.unused() ?? []) {
      const p = { problem: 'lot_selection_unused' as const, ref: e.name, detail: `${options.lots} line ${e.line}: no disposal up to ${readTo} is ${e.name}; its lots were not used` };
      problems[p.problem] = (problems[p.problem] ?? 0) + 1;
      await store.problem(p);
    }

    progress.stage = 'writing';
    options.onProgress?.({ ...progress });
    const holdings = matcher.holdings();
    await store.holdings(holdings);
    await store.close();
    await writer.query('COMMIT');

    const held = new Map<string, { quantity: GainsDecimal; cost: GainsDecimal }>();
    for (const h of holdings) {
      const x = held.get(h.asset) ?? { quantity: ZERO, cost: ZERO };
      held.set(h.asset, { quantity: x.quantity.plus(h.quantity), cost: x.cost.plus(h.cost) });
    }
    const result = summary.result({
      taxYear: options.year, from, to, tz: options.tz, fiat, income, dataQuality: problems, incomplete: incompleteFigures({ dataQuality: problems, fiat, missingRates, matches: progress.matches, rules: options.rules, returnCurrency, period }),
      demo: { included: includeDemo, treatment: demoTreatment('gains', includeDemo), accounts: demoAccounts },
      holdings: [...held].sort(([a], [b]) => a.localeCompare(b)).map(([asset, x]) => ({ asset, quantity: x.quantity.toFixed(), cost: x.cost.toFixed() })),
    });

    const files = await writeFiles(writer, store.runId, options, output, result, corrections.size);
    await output.commit();
    return { runId: store.runId, outDir, summary: result, files, readSlices: bounds.length - 1, rowsRead: progress.rows };
  } catch (err) {
    // A query on a client that never connected waits for the connection forever.
    // The batch the store may still have in flight is answered first: one query at a time on a client.
    await opened?.settled();
    if (connected) await writer.query('ROLLBACK').catch(() => {});
    await output.discard();
    throw err;
  } finally {
    detach();
    detach2();
    await reader.end().catch(() => {});
    await reader2?.end().catch(() => {});
    await writer.end().catch(() => {});
  }
}

// The slices' bounds: `options.readSlices` of them, or as many as the ledger's size asks for.
async function readBounds(reader: pg.Client, options: RunGainsOptions, readTo: string): Promise<string[]> {
  if (options.readSlices === 1) return sliceBounds(null, 0, 1);
  const plan = (await reader.query<{ first_ms: number | null; end_ms: number; rows: number }>(SLICE_PLAN_SQL, [readTo, options.tz])).rows[0]!;
  const slices = options.readSlices ?? Math.min(MAX_SLICES, Math.max(1, Math.floor(plan.rows / SLICE_ROWS)));
  return sliceBounds(plan.first_ms, plan.end_ms, slices);
}

async function writeFiles(client: pg.Client, runId: string, options: RunGainsOptions, output: ReportOutput, summary: GainsSummary, corrections: number): Promise<ManifestFile[]> {
  const reportsDir = options.reportsDir ?? defaultReportsDir;
  const files: ManifestFile[] = [];
  for (const { query, file } of gainsCsvFiles(options.rules)) {
    const sql = await readFile(path.join(reportsDir, `${query}.sql`), 'utf8');
    const result = await streamQueryToCsv(client, bindNamedParameters(sql, { run_id: runId, broker_reporting: JSON.stringify(options.brokerReporting ?? {}) }), output.temporary(file), { flags: 'wx' })
      .catch((err: unknown) => { throw fileWriteError(err, file, output.dir); });
    const entry = { file, query: `reports/${query}.sql`, ...result, corrections };
    files.push(entry);
    options.onFile?.(entry);
  }
  for (const [file, text] of [['summary.json', `${JSON.stringify(summary, null, 2)}\n`], ['summary.txt', gainsSummaryText(summary)]] as const) {
    await writeFile(output.temporary(file), text, { flag: 'wx' }).catch((err: unknown) => { throw fileWriteError(err, file, output.dir); });
    const bytes = Buffer.byteLength(text);
    const entry = { file, query: 'src/gains/runGains.ts', rows: 1, bytes, sha256: createHash('sha256').update(text).digest('hex'), neutralisedCells: 0, corrections };
    files.push(entry);
    options.onFile?.(entry);
  }
  const manifest = {
    generatedAt: new Date().toISOString(),
    parameters: { rules: options.rules, year: options.year, fiat: summary.fiat, tz: options.tz, account: options.account ?? '', includeDemo: summary.demo.included, from: summary.period.from, to: summary.period.to },
    runId, files, demo: summary.demo,
    // every file reflects the same corrections: those in force on the ledger rows the run read
    corrections: { inForce: corrections, list: 'SELECT * FROM ledger_corrections_in_force (tradeledger classify list --account UID)' },
  };
  await writeFile(output.temporary('manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' }).catch((err: unknown) => { throw fileWriteError(err, 'manifest.json', output.dir); });
  return files;
}

/**
 * Refuses a tax year that has not started on the database's clock in the run's zone: `--year
 * 2030` ran, wrote every file, and said only that the year "has not ended" (a year typed wrong,
 * 2030 for 2020, gave a folder of figures from a year nothing can have happened in).
 */
async function checkYearStarted(client: pg.Client, options: RunGainsOptions, rules: ReturnType<typeof ruleSet>): Promise<void> {
  const { rows } = await client.query<{ today: string }>(`SELECT to_char(now() AT TIME ZONE $1, 'YYYY-MM-DD') AS today`, [options.tz]);
  const today = rows[0]!.today;
  const { from } = rules.taxYear(options.year);
  if (from <= today) return;
  let current = Number(today.slice(0, 4));
  if (rules.taxYear(current).from > today) current -= 1;
  throw new TradeledgerError('GAINS_BAD_FLAG', `the ${options.rules} tax year ${options.year} starts on ${from}, after today (${today} in ${options.tz}): nothing can have happened in it yet`, {
    kind: 'config', hint: `The ${options.rules} tax year running now is ${current} (from ${rules.taxYear(current).from}); the one before it, ${current - 1}.`,
  });
}

// The zone was checked by name (parseGainsRequest, normalize/timeZone.ts) for the CLI and the
// portal; this is the database's word on it, as runReports' periodBounds is for a report.
async function checkZone(client: pg.Client, tz: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_timezone_names WHERE name = $1', [tz]);
  if (!rowCount) {
    throw new TradeledgerError('GAINS_BAD_FLAG', `the database does not know the time zone "${tz}"`, {
      kind: 'config', hint: 'Use an IANA zone such as Europe/London, America/New_York or UTC.',
    });
  }
}

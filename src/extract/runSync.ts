import { isDemoRun, refuseDemoDatabase } from './demoWorld.js';
import pLimit from 'p-limit';
import { CompiledQuery } from 'kysely';
import type { Transaction } from 'kysely';
import { endpoints } from '../api/endpoints.js';
import { TradeledgerError } from '../errors.js';
import type { AccountRun } from './accountRun.js';
import { openSessions } from './exchangeSession.js';
import type { AccountSession } from './exchangeSession.js';
import { partitionContext, symbolBook } from './partitionContext.js';
import { historyStreams, snapshotStreams } from './streamRegistry.js';
import type { DerivedStream, DerivedTiming, Partition, Stream } from './streamDef.js';
import { LedgerArrivals } from './ledgerArrivals.js';
import { ledgerTables } from './streams/prices.js';
import { runHistoryPartition } from './runHistoryPartition.js';
import { runSnapshotPartition } from './runSnapshotPartition.js';
import { recheckOpen } from './recheckOpen.js';
import { markState } from './syncState.js';
import { closeRun, openRun, recordAccount } from './syncRunRecord.js';
import { storeHealthCounts } from '../db/accountHealthCounts.js';
import type { RunQuery } from '../db/accountHealthCounts.js';
import { refreshPlannerStatistics } from '../db/plannerStatistics.js';
import type { RunError, RunGap } from './syncRunRecord.js';
import type { StreamCounts } from './streamCounts.js';
import type { SyncOptions } from './syncOptions.js';
import { selectStreams } from './selectStreams.js';
import { holdSyncLock, isLockLost, lockLostError } from './syncLock.js';
import type { SyncLock } from './syncLock.js';
import { isConnectionProblem, refusalError, tooManyConnections } from '../db/connectionProblem.js';

export interface SyncResult {
  readonly runId: string;
  /** 'failed': the run stopped for want of its database connection (DB_CONNECTION_LOST), its account lock (SYNC_LOCK_LOST) or its worker (SYNC_STOPPED). */
  readonly status: 'ok' | 'partial' | 'failed';
  readonly counts: Record<string, StreamCounts>;
  readonly errors: RunError[];
  readonly gaps: RunGap[];
  /** History read before where a partition's read began, for an earlier --since (a backfill). */
  readonly backfills: RunGap[];
}

/**
 * One sync run: opens and checks every account, then runs every selected stream partition of
 * every account at once (p-limit), each inside its endpoint's rate budget. A partition that
 * fails for good is recorded and the others go on (status 'partial'). Throws only for setup
 * failures (config, auth, database), before anything is written.
 *
 * @example
 * const result = await runSync(options); // result.status: 'ok' | 'partial'
 */
export async function runSync(o: SyncOptions): Promise<SyncResult> {
  // The slowest budgets (1 request/s) start first: they set the run's length, so they must never
  // queue behind partitions of fast endpoints.
  // Among equals, the tables the ledger reads first: the prices stream reads their candles as
  // soon as they are done (issue 24 item 1).
  const feedsLedger = (s: Stream) => (s.kind === 'history' && ledgerTables.has(s.table) ? 0 : 1);
  const selected = selectStreams(o.sync.streams)
    .sort((a, b) => endpoints[a.endpoint].ratePerSecond - endpoints[b.endpoint].ratePerSecond || feedsLedger(a) - feedsLedger(b));
  const sessions = await openSessions(o, (account, e) => {
    if (e.type === 'rate-wait' || e.type === 'rate-limited') o.emit({ type: 'rate-wait', account, endpoint: e.endpoint, ms: e.ms });
    else if (e.type === 'retry') {
      // The words, not a bare '45001' (which told an operator reading the log nothing), and the code beside them.
      const code = e.exchangeCode ?? (e.httpStatus !== undefined && e.httpStatus >= 400 ? `HTTP ${e.httpStatus}` : undefined);
      o.emit({ type: 'retry', account, endpoint: e.endpoint, ms: e.ms, reason: e.message ?? code ?? 'error', ...(code !== undefined ? { code } : {}) });
    }
  });
  // Refused before the run starts: the sessions' clients are closed, then the error goes on.
  const closeSessions = async (e: unknown): Promise<never> => { await Promise.all(sessions.map((s) => s.client.close())); throw e; };
  // Never an operator's accounts into the demo's database (extract/demoWorld.ts).
  if (!isDemoRun(o.runNote)) await refuseDemoDatabase(o.db, sessions.map((s) => ({ uid: s.uid, name: s.account.name }))).catch(closeSessions);
  // One lock per account, taken once the UIDs are known (a UID may be discovered above).
  const lock = await holdSyncLock(o.db, sessions.map((s) => s.uid), new Map(sessions.map((s) => [s.uid, s.account.name]))).catch(closeSessions);
  try {
    const first = sessions[0]!;
    const now = Math.min(Date.now(), first.client.serverNow());
    const runId = await openRun(o.db, { ...o.runNote, streams: selected.map((s) => s.name), since: o.sync.since, accounts: sessions.map((s) => s.account.name) }, { accountUids: sessions.map((s) => s.uid), backendPid: lock.backendPid });
    // The fencing tokens, on the lock's connection: from here every checkpoint and page of this
    // run commits only while it still holds the lock (sql/migrations/0068_account_fences.sql).
    try {
      await lock.claim(runId);
    } catch (e) {
      await closeRun(o.db, runId, 'failed', {}, [{ account: first.account.name, stream: '*', partition: '*', code: 'SYNC_LOCK_LOST', message: messageOf(e) }], []).catch(() => undefined);
      throw isConnectionProblem(e) ? lockLostError(messageOf(e)) : e;
    }
    for (const s of sessions) {
      const parent = sessions.find((p) => p.account.name === s.account.parentName);
      await recordAccount(o.db, { uid: s.uid, name: s.account.name, kind: s.account.kind, parentUid: parent?.uid ?? null });
    }
    let book: ReturnType<typeof symbolBook> | undefined;
    const getBook = () => (book ??= symbolBook(first.call));
    // Fetched once, before the streams start, when a selected stream declares it needs it. A
    // failed symbol list fails only the streams that need it (partitions by symbol; fees are
    // then flagged for want of the received coin), not the run.
    if (selected.some((s) => s.kind === 'history' && s.needsSymbols)) await getBook().catch(() => undefined);
    const coins = (await book?.catch(() => undefined))?.coins ?? new Map<string, { baseCoin: string; quoteCoin: string }>();
    const symbols = async () => o.sync.symbols ?? (await getBook()).names;

    const counts: Record<string, StreamCounts> = {};
    const errors: RunError[] = [];
    const gaps: RunGap[] = [];
    const backfills: RunGap[] = [];
    const limit = pLimit(o.sync.concurrency);
    // Partitions of the 1 request/s endpoints (E5, X7, X8) spend their time waiting for their
    // budget, not working: they take slots of their own, so the fast endpoints never queue behind
    // them (at 32 slots, 24 of a six-account run's slots were theirs for 25-52 s).
    const slowLimit = pLimit(o.sync.concurrency);
    const jobs: Promise<void>[] = [];
    let globalDone = false;
    o.emit({ type: 'run-start', runId, accounts: sessions.length, tasks: 0 });

    // With real rate limits the prices stream starts at once and reads the candles of each
    // table's hours as its job ends: the candle budget (20 requests/s per address) then runs
    // beside the per-UID ones, and the first sync's wall is set by the slowest budget, not by a
    // queue (issue 24 item 1). Without limits nothing waits for a budget, and a pass per table
    // would only scan the ledger more often.
    const arrivals = o.client.rateLimit && sessions.some((s) => !s.demo) && selected.some((s) => s.kind === 'derived') ? new LedgerArrivals() : undefined;
    // Pages of the slow jobs go to `arrivals` until the fast jobs are done, then to `slowArrivals`.
    const slowArrivals = arrivals && new LedgerArrivals();
    let pagesTo = arrivals;
    const perAccount = sessions.map((session) => ({
      session, run: accountRun(o, session, runId, now, (sym) => coins.get(sym), { gaps, backfills }, lock, arrivals && slowPagesTo(() => pagesTo, session.uid, selected)), ctx: partitionContext(session, symbols),
    }));
    // Streams outside, accounts inside: every account's slow partitions queue before any fast one.
    // Jobs of endpoints faster than 1 request/s are kept apart: the derived streams start when
    // they are done, beside the slow ones (the first sync's wall is set by its slowest budget,
    // not by a queue: issue 24 item 1).
    const fast: Promise<void>[] = [];
    // The reader of derived streams: the first account that is not demo trading.
    const reader = perAccount.find((a) => !a.session.demo);
    for (const stream of selected) {
      if (stream.kind === 'derived') continue;
      for (const { session, run, ctx } of perAccount) {
        if (!applies(stream, session)) continue;
        if (stream.kind === 'snapshot' && stream.global) {
          if (globalDone) continue;
          globalDone = true;
        }
        const isFast = endpoints[stream.endpoint].ratePerSecond > 1;
        const job = (async () => {
          let partitions: readonly Partition[];
          try {
            partitions = await stream.partitions(ctx);
          } catch (e) {
            errors.push(errorOf(session, stream.name, '*', e));
            o.emit({ type: 'partition-failed', account: session.account.name, stream: stream.name, partition: '*', code: codeOf(e), message: messageOf(e) });
            return;
          }
          const keys = partitions.map((p) => p.key);
          const done = await Promise.all(partitions.map((p) => (isFast ? limit : slowLimit)(() => runOne(o, run, session, stream, p, keys, counts, errors))));
          if (stream.kind === 'history' && done.some((c) => c !== undefined && c.inserted + c.updated > 0)) arrivals?.add(session.uid, stream.table);
        })();
        jobs.push(job);
        if (isFast) fast.push(job);
      }
    }
    // Derived streams (prices) read what the others stored: a full pass once the fast endpoints
    // are done, and again, for what the slow ones stored since, when those are done too (early
    // passes before, with `arrivals`). `rest` is handed over only while a slow partition is still
    // running: otherwise the pass already sees everything, and a second would only scan the ledger again.
    let allDone = false;
    const all = Promise.all(jobs).then(() => { allDone = true; });
    void all.finally(() => slowArrivals?.close()).catch(() => undefined);
    // Planner statistics for the tables the run filled (none where autovacuum has not come by):
    // the full prices pass and the counts at the end read the whole ledger (src/db/plannerStatistics.ts).
    const refreshStatistics = () => o.db.transaction().execute((trx) => refreshPlannerStatistics(queryIn(trx))).catch(() => {});
    const ready = Promise.all(fast).then(async () => {
      arrivals?.close();
      pagesTo = slowArrivals;
      if (selected.some((s) => s.kind === 'derived')) await refreshStatistics();
      return { rest: allDone ? undefined : all };
    });
    const derived = (arrivals === undefined ? ready : Promise.resolve()).then(async () => {
      for (const stream of selected) {
        if (stream.kind === 'derived' && reader) await runDerived(o, reader.run, reader.session, stream, counts, errors, { ready, ...(arrivals ? { arrivals } : {}), ...(slowArrivals ? { slowArrivals } : {}) });
      }
    });
    await all;
    await derived;
    const status = errors.length === 0 ? 'ok' : errors.some((e) => stopCodes.has(e.code)) ? 'failed' : 'partial';
    await closeRun(o.db, runId, status, counts, errors, gaps);
    // The accounts page's and status's warning counts read the whole ledger: computed once here,
    // after the run's last bookkeeping write, so the first page after a sync needs none of it
    // (issue 24 item 6). A failure only leaves the reader to compute them itself.
    if (status !== 'failed') {
      // Statistics again for what changed since (the slow partitions' tables, the candles).
      await refreshStatistics();
      await o.db.transaction().setIsolationLevel('repeatable read')
        .execute((trx) => storeHealthCounts(queryIn(trx)))
        .catch(() => {});
    }
    const total = Object.values(counts).reduce((a, c) => ({ i: a.i + c.inserted, u: a.u + c.updated, n: a.n + c.unchanged }), { i: 0, u: 0, n: 0 });
    o.emit({ type: 'run-done', runId, status, inserted: total.i, updated: total.u, unchanged: total.n, failed: errors.length });
    return { runId, status, counts, errors, gaps, backfills };
  } finally {
    await Promise.all(sessions.map((s) => s.client.close()));
    await lock.release();
  }
}

/** Whether a stream runs for an account (demo accounts: futures only; sub-account listings: main only). */
export function applies(stream: Stream, s: AccountSession): boolean {
  if (s.demo) return stream.demo;
  if (s.account.kind === 'sub' && !stream.sub) return false;
  if (stream.kind === 'snapshot' && stream.accountColumn === 'main_uid') return s.account.kind === 'main';
  return true;
}

/** One partition; its counts, or undefined when it failed. */
async function runOne(
  o: SyncOptions, run: AccountRun, session: AccountSession, stream: Exclude<Stream, DerivedStream>, p: Partition, partitionKeys: readonly string[],
  counts: Record<string, StreamCounts>, errors: RunError[],
): Promise<StreamCounts | undefined> {
  const key = { account: session.uid, stream: stream.name, partition: p.key };
  const label = `${session.account.name}/${stream.name}/${p.key}`;
  try {
    // A run that lost its lock starts nothing more (its writes would be refused anyway).
    run.assertHeld();
    if (stream.kind === 'history') {
      const r = await runHistoryPartition(run, stream, p);
      counts[label] = r.counts;
      // Records still open (pending, Processing, live) that the windows no longer reach.
      if (stream.recheckOpen) {
        counts[`${session.account.name}/${stream.name}/${p.key === 'all' ? '' : `${p.key}/`}open-recheck`] = await recheckOpen(run, stream, stream.recheckOpen, p, partitionKeys, r.firstWindowStart);
      }
      await markState(o.db, key, 'ok', run.runId, null);
    } else {
      o.emit({ type: 'partition-start', account: session.account.name, stream: stream.name, partition: p.key, windows: 0 });
      counts[label] = await runSnapshotPartition(run, stream, p);
    }
    const c = counts[label]!;
    o.emit({ type: 'partition-done', account: session.account.name, stream: stream.name, partition: p.key, records: c.inserted + c.updated + c.unchanged, inserted: c.inserted, updated: c.updated, unchanged: c.unchanged });
    return c;
  } catch (e) {
    errors.push(errorOf(session, stream.name, p.key, e));
    if (stream.kind === 'history' && !unmarked.has(codeOf(e))) await markState(o.db, key, 'failed', run.runId, messageOf(e)).catch(() => undefined);
    o.emit({ type: 'partition-failed', account: session.account.name, stream: stream.name, partition: p.key, code: codeOf(e), message: messageOf(e) });
    return undefined;
  }
}

async function runDerived(o: SyncOptions, run: AccountRun, session: AccountSession, stream: DerivedStream, counts: Record<string, StreamCounts>, errors: RunError[], timing: DerivedTiming): Promise<void> {
  const account = session.account.name;
  o.emit({ type: 'partition-start', account, stream: stream.name, partition: 'all', windows: 0 });
  try {
    run.assertHeld();
    const c = await stream.run(run, timing);
    counts[`${account}/${stream.name}/all`] = c;
    o.emit({ type: 'partition-done', account, stream: stream.name, partition: 'all', records: c.inserted + c.updated + c.unchanged, inserted: c.inserted, updated: c.updated, unchanged: c.unchanged });
  } catch (e) {
    errors.push(errorOf(session, stream.name, 'all', e));
    o.emit({ type: 'partition-failed', account, stream: stream.name, partition: 'all', code: codeOf(e), message: messageOf(e) });
  }
}

/** Statements run as text in one transaction, for the bookkeeping written as SQL (src/db/). */
function queryIn(trx: Transaction<any>): RunQuery {
  return (text, values) => trx.executeQuery(CompiledQuery.raw(text, values ?? [])).then((r) => r.rows as Record<string, unknown>[]);
}

/**
 * What a slow (1 request/s) history stream's stored pages tell the prices stream: the account's
 * table, at most once per `slowArrivalEveryMs`. Such a job walks for the whole run (E5: 50 s at
 * 50 requests per UID), so handing its table over only when it ends left every candle its rows
 * need to be read after it, in the run's last seconds (2-3 s at 19 requests/s); read as its pages
 * come, only the last few seconds' hours are left for the pass after it.
 */
function slowPagesTo(arrivals: () => LedgerArrivals | undefined, uid: string, selected: readonly Stream[]): (stream: string) => void {
  const slowTables = new Map(selected.filter((s) => s.kind === 'history' && endpoints[s.endpoint].ratePerSecond <= 1 && ledgerTables.has(s.table))
    .map((s) => [s.name, (s as Extract<Stream, { kind: 'history' }>).table]));
  const handedAt = new Map<string, number>();
  return (stream) => {
    const table = slowTables.get(stream);
    if (table === undefined) return;
    const now = Date.now();
    if (now - (handedAt.get(table) ?? -Infinity) < slowArrivalEveryMs) return;
    handedAt.set(table, now);
    arrivals()?.add(uid, table);
  };
}

/** How often a slow stream's pages hand its table to the prices stream (see slowPagesTo). */
const slowArrivalEveryMs = 5_000;

function accountRun(
  o: SyncOptions, s: AccountSession, runId: string, now: number, coinsOf: AccountRun['coinsOf'], spans: { gaps: RunGap[]; backfills: RunGap[] }, lock: SyncLock, pageStored?: (stream: string) => void,
): AccountRun {
  return {
    db: o.db, call: s.call, runId, coinsOf, now, settings: o.sync,
    assertHeld: () => {
      if (o.signal?.aborted) throw new TradeledgerError('SYNC_STOPPED', 'the sync was stopped (the worker is shutting down); it resumes from its last committed page', { kind: 'database', retryable: true });
      lock.assertHeld();
    },
    account: { uid: s.uid, name: s.account.name, demo: s.demo, main: s.account.kind === 'main' },
    snapshotAt: new Date(now).toISOString(),
    emit: (e) => {
      const span = e.type === 'gap' || e.type === 'backfill' ? { account: e.account, stream: e.stream, partition: e.partition, from: e.from, to: e.to } : undefined;
      if (span) (e.type === 'gap' ? spans.gaps : spans.backfills).push(span);
      else if (e.type === 'page' && e.inserted + e.updated > 0) pageStored?.(e.stream);
      o.emit(e);
    },
  };
}

function errorOf(s: AccountSession, stream: string, partition: string, e: unknown): RunError {
  return { account: s.account.name, stream, partition, code: codeOf(e), message: messageOf(e) };
}

// A partition whose database session died (a PostgreSQL restart, 57P01) failed for want of the
// database, not because of its data or a bug: the run is then 'failed', exit code 4.
const connectionLost = 'DB_CONNECTION_LOST';
// A run that stopped for want of its database, its lock or its worker ends 'failed'.
const stopCodes = new Set([connectionLost, 'SYNC_LOCK_LOST', 'SYNC_STOPPED']);
// A partition stopped with its lock lost (the mark would be refused) or by its worker keeps its
// last checkpoint as it was: no 'failed' mark.
const unmarked = new Set(['SYNC_LOCK_LOST', 'SYNC_STOPPED']);

function lostConnection(e: unknown): boolean {
  return (!(e instanceof TradeledgerError) || e.kind === 'database') && isConnectionProblem(e);
}

function codeOf(e: unknown): string {
  // A lock that went with its connection in a restart is the restart's doing (exit 4, as any
  // lost connection); a write the fence refused, or a lock connection that merely closed, is SYNC_LOCK_LOST.
  if (lostConnection(e)) return connectionLost;
  if (isLockLost(e)) return 'SYNC_LOCK_LOST';
  return e instanceof TradeledgerError ? e.code : refusalError(e)?.code ?? 'INTERNAL';
}

function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  if (!lostConnection(e)) {
    // what the server refused (its own statement_timeout, a read-only session), and the fix
    const refused = refusalError(e);
    return refused === undefined ? text : `${refused.message}; ${refused.hint}`;
  }
  const crowded = tooManyConnections(e);
  if (crowded !== undefined) return `${crowded.said}: ${crowded.fix}`;
  const sqlState = (e as { code?: unknown }).code;
  return `the connection to PostgreSQL was lost (${typeof sqlState === 'string' ? `${sqlState} ` : ''}${text})`;
}

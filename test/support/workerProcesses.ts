import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { startCli } from './runCli.js';
import type { CliResult } from './runCli.js';

/** A `tradeledger worker` child process and what it logged. */
export interface WorkerProcess {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** The JSON lines it wrote to stderr so far. */
  events(): Record<string, unknown>[];
}

/** Starts `tradeledger worker --config FILE --concurrency N` as its own OS process. */
export function startWorker(file: string, env: Record<string, string>, concurrency = 1): WorkerProcess {
  const { child, done } = startCli(['worker', '--config', file, '--concurrency', String(concurrency)], env);
  let err = '';
  child.stderr?.on('data', (d) => { err += String(d); });
  return {
    child, done,
    events: () => err.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** Stops workers with SIGTERM (a graceful stop) and waits for them to exit. */
export async function stopWorkers(workers: readonly WorkerProcess[]): Promise<CliResult[]> {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
  return Promise.all(workers.map((w) => w.done));
}

/** Sync jobs still in the engine's table (queued, running or failed). */
export async function jobsLeft(db: Kysely<any>): Promise<{ id: string; queue_name: string; attempts: number; max_attempts: number; locked_by: string | null; last_error: string | null }[]> {
  return (await sql<{ id: string; queue_name: string; attempts: number; max_attempts: number; locked_by: string | null; last_error: string | null }>`
    SELECT id::text, queue_name, attempts, max_attempts, locked_by, last_error FROM graphile_worker.jobs ORDER BY id`.execute(db)).rows;
}

/** Polls `check` every 200 ms until it returns true, or fails after `ms` naming `what`. */
export async function waitFor(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Every account's sync runs in time order, with any two runs of one account that overlap. A run
 * still 'running' or 'interrupted' (its process was killed) has no end and is left out: the
 * account's lock died with that process before another could take it.
 */
export async function overlappingRuns(db: Kysely<any>): Promise<{ runs: number; overlaps: string[] }> {
  const { rows } = await sql<{ id: string; uid: string; started_at: Date; finished_at: Date | null; status: string }>`
    SELECT r.id::text, u.uid, r.started_at, r.finished_at, r.status FROM sync_runs r, unnest(r.account_uids) AS u(uid)
    ORDER BY u.uid, r.started_at`.execute(db);
  const overlaps: string[] = [];
  const finished = rows.filter((r) => r.finished_at !== null);
  for (let i = 1; i < finished.length; i++) {
    const a = finished[i - 1]!;
    const b = finished[i]!;
    if (a.uid === b.uid && b.started_at < a.finished_at!) overlaps.push(`account ${a.uid}: run ${a.id} (${a.started_at.toISOString()}..${a.finished_at!.toISOString()}) overlaps run ${b.id} (from ${b.started_at.toISOString()})`);
  }
  return { runs: finished.length, overlaps };
}

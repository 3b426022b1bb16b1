import { writeFileSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { createDb } from '../../../src/db/createDb.js';
import { readCheckpoint } from '../../../src/extract/syncState.js';
import { DAY_MS } from '../../../src/api/endpoints.js';
import { configDefaults } from '../../../src/cli/config/syncConfig.js';
import type { Checkpoint } from '../../../src/extract/windowPlan.js';
import type { RunningSandbox } from '../../../src/sandbox/startSandbox.js';
import { markdownTable } from './markdownTable.js';
import { minimumRequests, partitionsOf } from './minimumRequests.js';
import { historyStreams } from '../../../src/extract/streamRegistry.js';
import { runSyncProcess } from './runSyncProcess.js';
import { sandboxStats, statsDelta } from './sandboxStats.js';

/** The safety lag that leaves the newest day unread by a first sync, so the next run has one day of new data. */
export const oneDayBehindSeconds = 86_400 + configDefaults.safetyLagSeconds;

export interface NightlyInput {
  sandbox: RunningSandbox;
  /** The config file the first sync ran with (its sync.safetyLagSeconds is reset to the default here). */
  file: string;
  env: Record<string, string>;
  databaseUrl: string;
  accounts: readonly { uid: string; name: string; kind: 'main' | 'sub' | 'demo' }[];
  args: readonly string[];
}

/**
 * The nightly run after a first sync that stopped one day short (sync.safetyLagSeconds =
 * oneDayBehindSeconds): reruns `tradeledger sync` with the default lag, so exactly one day of
 * history is new, and compares the requests made (sandbox counters) with two minima counted
 * from the sandbox world and the checkpoints the first run left: "new data" (per partition, the
 * pages of history past its watermark, at least one request to prove a window empty; pending
 * trigger orders are current state and are re-read whole), and "with look-back" (plus the
 * look-back mutable streams re-read by design). Returns the markdown it measured.
 *
 * @example
 * console.log(await nightlyRun({ sandbox, file, env, databaseUrl, accounts, args: ['--account', 'main'] }));
 */
export async function nightlyRun(input: NightlyInput): Promise<string> {
  const { checkpoints, rescanFrom } = await readCheckpoints(input.databaseUrl, input.accounts);
  const config = JSON.parse(readFileSync(input.file, 'utf8')) as { sync?: Record<string, unknown> };
  writeFileSync(input.file, JSON.stringify({ ...config, sync: { ...config.sync, safetyLagSeconds: configDefaults.safetyLagSeconds } }, null, 2));
  const before = await sandboxStats(input.sandbox.baseUrl);
  const now = Math.min(Date.now(), input.sandbox.world.now());
  const run = await runSyncProcess(['--config', input.file, ...input.args], { ...input.env, DATABASE_URL: input.databaseUrl });
  const after = await sandboxStats(input.sandbox.baseUrl);
  const timing = {
    now, safetyLagMs: configDefaults.safetyLagSeconds * 1000, since: undefined, historyDays: configDefaults.historyDays,
    horizonMarginMs: configDefaults.horizonMarginSeconds * 1000, lookbackDays: configDefaults.lookbackDays,
  };
  const strict = minimumRequests(input.sandbox.world, { accounts: input.accounts, timing, checkpoints, rescanFrom, lookback: false });
  const designed = minimumRequests(input.sandbox.world, { accounts: input.accounts, timing, checkpoints, rescanFrom, lookback: true });
  const made = statsDelta(before, after);
  const rows = strict.map((b) => {
    const d = designed.find((x) => x.uid === b.uid && x.endpointId === b.endpointId);
    return [`${b.endpointId} ${b.endpoint}`, b.records, b.requests, d?.records ?? 0, d?.requests ?? 0, made.get(`${b.uid} ${b.endpointId}`) ?? 0] as (string | number)[];
  });
  const historyIds = new Set(strict.map((b) => `${b.uid} ${b.endpointId}`));
  const other = [...made].filter(([k]) => !historyIds.has(k));
  const sum = (i: number) => rows.reduce((s, r) => s + (r[i] as number), 0);
  const otherMade = other.reduce((s, [, n]) => s + n, 0);
  const madeTotal = sum(5) + otherMade;
  return [
    ...(run.failures.length > 0 ? [`\nnightly run: failed partitions:\n${run.failures.join('\n')}`] : []),
    `\n### nightly run: one day of new data (sync ${run.summary?.status ?? `exit ${run.code}`}, ${(run.wallMs / 1000).toFixed(1)} s, peak RSS ${run.peakRssMb?.toFixed(0)} MB)\n`,
    markdownTable(['endpoint', 'new records', 'min requests (new data)', 'records incl. look-back', 'min requests (with look-back)', 'requests made'], [...rows, ['total (history endpoints)', sum(1), sum(2), sum(3), sum(4), sum(5)]]),
    `\nOther requests made (snapshots, symbol list, key checks; counted in both ratios as needed): ${other.map(([k, n]) => `${k.split(' ')[1]} ${n}`).join(', ') || 'none'}.`,
    `\n| ratio | value |\n|---|---:|\n| requests made / minimum (new data) | ${(madeTotal / (sum(2) + otherMade)).toFixed(2)} |\n| requests made / minimum (with look-back) | ${(madeTotal / (sum(4) + otherMade)).toFixed(2)} |`,
  ].join('\n');
}

/** What the first run left: checkpoints, and where current-state streams must re-read from. */
async function readCheckpoints(url: string, accounts: NightlyInput['accounts']): Promise<{ checkpoints: Map<string, Checkpoint>; rescanFrom: Map<string, number> }> {
  const db = createDb(url, { name: 'bench', maxConnections: 1 });
  try {
    const { rows } = await sql<{ account_uid: string; stream: string; partition: string }>`SELECT account_uid, stream, partition FROM sync_state`.execute(db);
    const checkpoints = new Map<string, Checkpoint>();
    const rescanFrom = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.account_uid}/${r.stream}/${r.partition}`;
      const cp = await readCheckpoint(db, { account: r.account_uid, stream: r.stream, partition: r.partition });
      if (cp) checkpoints.set(key, cp);
      const stream = historyStreams.find((s) => s.name === r.stream);
      const account = accounts.find((a) => a.uid === r.account_uid);
      const partition = stream && account ? partitionsOf(stream, account, []).find((p) => p.key === r.partition) : undefined;
      if (stream?.current && partition) {
        const from = await stream.current.oldestCurrent(db, r.account_uid, partition);
        if (from !== undefined) rescanFrom.set(key, from);
      }
    }
    return { checkpoints, rescanFrom };
  } finally {
    await db.destroy();
  }
}

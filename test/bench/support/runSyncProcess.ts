import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../bin/tradeledger.js', import.meta.url));

/** What one `tradeledger sync` child process did. */
export interface SyncProcessResult {
  code: number | null;
  /** Process start to exit, as an operator's cron sees it (includes start-up and migration check). */
  wallMs: number;
  /** From the run-start to the run-done progress line: the sync itself. */
  syncMs: number | undefined;
  /** CPU seconds (user + system) the sync process used. */
  cpuS: number | undefined;
  /** The part of cpuS spent in the kernel (socket reads and writes, page faults). */
  systemS: number | undefined;
  /** VmHWM of the sync process, from GNU time's "Maximum resident set size". */
  peakRssMb: number | undefined;
  /** The --json summary (runSync's SyncResult), when the run got that far. */
  summary: { status: string; counts: Record<string, { inserted: number; updated: number; unchanged: number; requests: number; pages: number }> } | undefined;
  /** The last part of stderr, for diagnosis. */
  stderrTail: string;
  /** Retries the client reported: seconds after run-start, account/endpoint and reason (e.g. 429). */
  retries: { atS: number; where: string; reason: string }[];
  /** Partitions that failed for good: "account/stream/partition code message". */
  failures: string[];
  /** Per "account/stream/partition": seconds after run-start it started and finished. */
  partitions: Map<string, { startS: number; doneS: number | undefined }>;
}

/**
 * Runs `tradeledger sync --json ...args` as a child process under `/usr/bin/time -v`, exactly as
 * a scheduler would, and reports wall time, the sync's own span (from its JSON progress lines
 * on stderr), peak RSS and the summary.
 *
 * @example
 * const r = await runSyncProcess(['--config', file], { ...env, DATABASE_URL: url });
 */
export function runSyncProcess(args: readonly string[], env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<SyncProcessResult> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...nodeArgs, bin, 'sync', '--json', ...args], {
    // TRADELEDGER_FROM_SOURCE=1 passes through: the sync then runs from src/ under tsx, not from dist/.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...(process.env.TRADELEDGER_FROM_SOURCE ? { TRADELEDGER_FROM_SOURCE: process.env.TRADELEDGER_FROM_SOURCE } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let tail = '';
  let partial = '';
  let runStart: number | undefined;
  let runDone: number | undefined;
  const partitions = new Map<string, { start: number; done: number | undefined }>();
  const failures: string[] = [];
  const retryTimes: { at: number; where: string; reason: string }[] = [];
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => {
    const text = partial + String(d);
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      // Only two progress lines matter; the rest (one per page) is read and dropped.
      if (/"type":"(run-start|run-done|partition-start|partition-done|partition-failed|retry)"/.test(line)) {
        const e = JSON.parse(line) as { type: string; time: string; account?: string; stream?: string; partition?: string; code?: string; message?: string; endpoint?: string; reason?: string };
        const at = Date.parse(e.time);
        const key = `${e.account}/${e.stream}/${e.partition}`;
        if (e.type === 'run-start') runStart = at;
        else if (e.type === 'run-done') runDone = at;
        else if (e.type === 'retry') retryTimes.push({ at, where: `${e.account}/${e.endpoint}`, reason: e.reason ?? '' });
        else if (e.type === 'partition-failed') failures.push(`${key} ${e.code}: ${e.message}`);
        else if (e.type === 'partition-start') partitions.set(key, { start: at, done: undefined });
        else partitions.set(key, { start: partitions.get(key)?.start ?? at, done: at });
      }
      tail = (tail + line + '\n').slice(-20_000);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      tail = (tail + partial).slice(-20_000);
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(tail)?.[1];
      const user = /User time \(seconds\): ([\d.]+)/.exec(tail)?.[1];
      const system = /System time \(seconds\): ([\d.]+)/.exec(tail)?.[1];
      const exit = /Exit status: (\d+)/.exec(tail)?.[1];
      let summary: SyncProcessResult['summary'];
      try {
        summary = JSON.parse(stdout.trim().split('\n').pop() ?? '') as SyncProcessResult['summary'];
      } catch {
        summary = undefined;
      }
      resolve({
        code: exit === undefined ? code : Number(exit), wallMs,
        syncMs: runStart !== undefined && runDone !== undefined ? runDone - runStart : undefined,
        cpuS: user === undefined || system === undefined ? undefined : Number(user) + Number(system),
        systemS: system === undefined ? undefined : Number(system),
        peakRssMb: rss === undefined ? undefined : Number(rss) / 1024, summary, stderrTail: tail, failures,
        retries: retryTimes.map((r) => ({ atS: (r.at - (runStart ?? r.at)) / 1000, where: r.where, reason: r.reason })),
        partitions: new Map([...partitions].map(([k, p]) => [k, {
          startS: (p.start - (runStart ?? p.start)) / 1000, doneS: p.done === undefined ? undefined : (p.done - (runStart ?? p.done)) / 1000,
        }])),
      });
    });
  });
}

/**
 * Records the sync loaded (inserted + updated + unchanged) and requests it counted, summed
 * over every stream partition of a --json summary.
 *
 * @example
 * const { records } = summaryTotals(result.summary);
 */
export function summaryTotals(summary: SyncProcessResult['summary']): { records: number; inserted: number; requests: number; candles: number; history: number } {
  let records = 0;
  let inserted = 0;
  let requests = 0;
  let candles = 0;
  for (const [key, c] of Object.entries(summary?.counts ?? {})) {
    records += c.inserted + c.updated + c.unchanged;
    inserted += c.inserted;
    requests += c.requests;
    // The prices stream's records are candles, not account history (issue 24: report them apart).
    if (/\/prices\/all$/.test(key)) candles += c.inserted + c.updated + c.unchanged;
  }
  return { records, inserted, requests, candles, history: records - candles };
}

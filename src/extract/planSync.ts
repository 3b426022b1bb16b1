import { endpoints } from '../api/endpoints.js';
import { openSessions } from './exchangeSession.js';
import { partitionContext, symbolBook } from './partitionContext.js';
import { currentRescanFrom, readCheckpoint, readParallelWindows } from './syncState.js';
import { planWindows } from './windowPlan.js';
import { lookbackStart } from './lookbackStart.js';
import { defaultStartReason } from './historyGap.js';
import { selectStreams } from './selectStreams.js';
import { applies } from './runSync.js';
import type { SyncOptions } from './syncOptions.js';

/** One line of a dry-run plan. */
export interface PlanLine {
  account: string;
  stream: string;
  partition: string;
  endpoint: string;
  windows: number;
  /** At least one request per window (more when a window holds more than a page). */
  minRequests: number;
  from: string | null;
  to: string | null;
  gap: { from: string; to: string } | null;
  /** A first sync without --since starts sync.historyDays back: history before `before` is not read (a listed gap). */
  unreadBefore?: { before: string; reason: string };
  /** A later sync whose --since is before the partition's start: the span read first (in `windows`). */
  backfill?: { from: string; to: string };
}

/**
 * What a sync would do, without writing anything: per account, stream and partition the windows
 * and the least number of requests, and the least time the rate limits allow. Reads the
 * checkpoints and asks the exchange only for the lists partitions come from (symbols,
 * sub-accounts), after proving each key works.
 *
 * @example
 * const { lines, minSeconds } = await planSync(options);
 */
export async function planSync(o: SyncOptions): Promise<{ lines: PlanLine[]; requests: number; minSeconds: number }> {
  const selected = selectStreams(o.sync.streams);
  const sessions = await openSessions(o, () => undefined);
  try {
    const first = sessions[0]!;
    const now = Math.min(Date.now(), first.client.serverNow());
    let book: ReturnType<typeof symbolBook> | undefined;
    const symbols = async () => o.sync.symbols ?? (await (book ??= symbolBook(first.call))).names;
    const lines: PlanLine[] = [];
    let globalDone = false;
    for (const s of sessions) {
      const ctx = partitionContext(s, symbols);
      for (const stream of selected) {
        if (!applies(stream, s)) continue;
        if (stream.kind === 'derived') {
          // Runs once, after the others; how much it reads depends on what they store.
          if (s === sessions.find((x) => !x.demo)) lines.push({ account: s.account.name, stream: stream.name, partition: 'all', endpoint: `${endpoints[stream.endpoint].id} ${stream.endpoint}`, windows: 0, minRequests: 0, from: null, to: null, gap: null });
          continue;
        }
        if (stream.kind === 'snapshot' && stream.global) {
          if (globalDone) continue;
          globalDone = true;
        }
        for (const p of await stream.partitions(ctx)) {
          const base = { account: s.account.name, stream: stream.name, partition: p.key, endpoint: `${endpoints[stream.endpoint].id} ${stream.endpoint}` };
          if (stream.kind === 'snapshot') {
            lines.push({ ...base, windows: 0, minRequests: 1, from: null, to: null, gap: null });
            continue;
          }
          const key = { account: s.uid, stream: stream.name, partition: p.key };
          // Windows an interrupted run left are read first; the plan then goes on from their end.
          const left = await readParallelWindows(o.db, key);
          const pending = left.filter((w) => !w.done);
          const stored = await readCheckpoint(o.db, key);
          const checkpoint = left.length === 0 ? stored : { watermark: Math.max(stored?.watermark ?? -Infinity, ...left.map((w) => w.end)), ...(stored?.currentFrom !== undefined ? { currentFrom: stored.currentFrom } : {}) };
          const plan = planWindows({
            spanDays: o.sync.windowDays[stream.name] ?? stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable,
            checkpoint, rescanFrom: await currentRescanFrom(o.db, stream, s.uid, p, checkpoint), now, settings: o.sync,
            lookbackFrom: await lookbackStart(o.db, stream, s.uid, p, checkpoint?.watermark, o.sync),
            current: stream.current !== undefined,
          });
          const back = plan.backfill?.inPlan ? [] : plan.backfill?.windows ?? [];
          const backSpan = plan.backfill?.windows ?? [];
          const gap = plan.gap ?? plan.backfill?.gap;
          const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
          lines.push({
            ...base, windows: pending.length + back.length + plan.windows.length, minRequests: pending.length + back.length + plan.windows.length,
            from: iso(pending[0]?.start ?? back[0]?.start ?? plan.windows[0]?.start), to: iso(plan.windows.at(-1)?.end ?? back.at(-1)?.end ?? pending.at(-1)?.end),
            gap: gap ? { from: iso(gap.from)!, to: iso(gap.to)! } : null,
            ...(backSpan.length === 0 ? {} : { backfill: { from: iso(backSpan[0]!.start)!, to: iso(plan.backfill!.to)! } }),
            ...(plan.unreadBefore === undefined ? {} : { unreadBefore: { before: iso(plan.unreadBefore)!, reason: defaultStartReason(o.sync.historyDays) } }),
          });
        }
      }
    }
    // Per (account, endpoint) the budget is the binding constraint; accounts and endpoints run in parallel.
    const perBudget = new Map<string, { requests: number; rate: number }>();
    for (const l of lines) {
      const name = l.endpoint.split(' ')[1] as keyof typeof endpoints;
      const key = `${l.account}/${name}`;
      const b = perBudget.get(key) ?? { requests: 0, rate: endpoints[name].ratePerSecond * o.client.safetyFactor };
      b.requests += l.minRequests;
      perBudget.set(key, b);
    }
    const minSeconds = Math.max(0, ...[...perBudget.values()].map((b) => b.requests / b.rate));
    return { lines, requests: lines.reduce((a, l) => a + l.minRequests, 0), minSeconds };
  } finally {
    await Promise.all(sessions.map((s) => s.client.close()));
  }
}

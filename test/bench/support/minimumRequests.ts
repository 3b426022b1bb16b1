import { endpoints } from '../../../src/api/endpoints.js';
import type { EndpointName } from '../../../src/api/endpoints.js';
import { historyStreams } from '../../../src/extract/streamRegistry.js';
import type { HistoryStream, Partition } from '../../../src/extract/streamDef.js';
import { planWindows } from '../../../src/extract/windowPlan.js';
import type { Checkpoint, PlanSettings, Window } from '../../../src/extract/windowPlan.js';
import type { HistoryResource, World } from '../../../src/sandbox/world.js';

/** The clock and settings a sync plans its windows with (see planWindows). */
/** The run's start and the sync settings a window plan reads. */
export type MinimumTiming = PlanSettings & { now: number };

export interface MinimumInput {
  accounts: readonly { uid: string; kind: 'main' | 'sub' | 'demo' }[];
  /** Stream names; undefined = every history stream. */
  streams?: readonly string[];
  timing: MinimumTiming;
  /** Per "uid/stream/partition", the checkpoint a previous run left (nightly runs). */
  checkpoints?: ReadonlyMap<string, Checkpoint>;
  /**
   * Per "uid/stream/partition" of a current-state stream (pending trigger orders), the oldest
   * record still current at the last run: to learn which ones left the list, any client must
   * re-read from there, so both minima include it.
   */
  rescanFrom?: ReadonlyMap<string, number>;
  /**
   * false: count only history not read yet (from the watermark on, no look-back), the least
   * any correct client must fetch. true: include the look-back that mutable streams re-read.
   */
  lookback: boolean;
}

/** The least requests one (UID, endpoint) budget needs, and how long its rate makes them take. */
export interface BudgetMinimum {
  uid: string;
  endpoint: EndpointName;
  endpointId: string;
  requests: number;
  records: number;
  ratePerSecond: number;
  seconds: number;
}

/**
 * The least number of history requests a sync must make, per (UID, endpoint) budget, counted
 * from the sandbox world itself: for every stream partition an account has, the windows the
 * endpoint's span forces, and in each window max(1, ceil(records / the endpoint's page maximum))
 * pages; an empty window still costs the one request that proves it is empty. Requests of
 * snapshot streams and start-up checks are not included (callers add what they observe).
 *
 * @example
 * const budgets = minimumRequests(sandbox.world, { accounts, timing, lookback: false });
 * const minSeconds = Math.max(...budgets.map((b) => b.seconds));
 */
export function minimumRequests(world: World, input: MinimumInput): BudgetMinimum[] {
  const budgets = new Map<string, BudgetMinimum>();
  const symbols = world.symbols().filter((s) => s.status === undefined || s.status === 'online').map((s) => s.symbol);
  for (const account of input.accounts) {
    for (const stream of historyStreams) {
      if (input.streams !== undefined && !input.streams.includes(stream.name)) continue;
      if (account.kind === 'demo' ? !stream.demo : account.kind === 'sub' && !stream.sub) continue;
      const subUids = world.accounts.find((a) => a.uid === account.uid)?.subUids ?? [];
      for (const partition of partitionsOf(stream, { ...account, subUids }, symbols)) {
        const key = `${account.uid}/${stream.name}/${partition.key}`;
        const cp = input.checkpoints?.get(key);
        const t = input.timing;
        const plan = planWindows({
          spanDays: stream.spanDays, horizonDays: stream.horizonDays, mutable: stream.mutable && input.lookback,
          rescanFrom: input.rescanFrom?.get(key), checkpoint: cp, now: t.now, settings: t,
        });
        const def = endpoints[stream.endpoint];
        const limit: number = 'limit' in def ? def.limit.max : stream.limit;
        const budget = `${account.uid} ${def.id}`;
        const b = budgets.get(budget) ?? {
          uid: account.uid, endpoint: stream.endpoint, endpointId: def.id, requests: 0, records: 0, ratePerSecond: def.ratePerSecond, seconds: 0,
        };
        for (const w of plan.windows) {
          const n = recordsIn(world, account.uid, stream, partition, w);
          b.records += n;
          b.requests += Math.max(1, Math.ceil(n / limit));
        }
        b.seconds = b.requests / b.ratePerSecond;
        budgets.set(budget, b);
      }
    }
  }
  return [...budgets.values()];
}

/**
 * A stream's partitions for an account without asking the exchange (`symbols` stands in for
 * the public symbol list E13 partitions come from).
 *
 * @example
 * partitionsOf(planOrders, { kind: 'main' }, []).map((p) => p.key); // ['USDT-FUTURES/normal_plan', ...]
 */
export function partitionsOf(stream: HistoryStream, account: { kind: string; subUids?: readonly string[] }, symbols: readonly string[]): readonly Partition[] {
  const found = stream.partitions({
    demo: account.kind === 'demo', main: account.kind === 'main',
    symbols: () => Promise.resolve(symbols), subAccountUids: () => Promise.resolve(account.subUids ?? []),
  });
  if (found instanceof Promise) {
    // E19 of a main account: its own partition, and one per sub-account (subUid).
    if (stream.name === 'transfers') return [{ key: 'all', params: {}, columns: {} }, ...(account.subUids ?? []).map((u) => ({ key: u, params: { subUid: u }, columns: {} }))];
    // E13: one partition per online symbol.
    return symbols.map((s) => ({ key: s, params: { symbol: s }, columns: {} }));
  }
  return found;
}

function recordsIn(world: World, uid: string, stream: HistoryStream, partition: Partition, w: Window): number {
  const { productType, marginType, subUid, ...rest } = partition.params;
  const series = world.series(uid, stream.name as HistoryResource, productType ?? marginType ?? 'all');
  // E19 lists the transfers made from the account asked about: the caller, or subUid.
  const checks = stream.name === 'transfers' ? [['fromUserId', subUid ?? uid] as const] : Object.entries(rest);
  const filter = checks.length === 0 ? undefined : (r: unknown) => checks.every(([k, v]) => (r as Record<string, unknown>)[k] === v);
  // A window resumed mid-way only has the records below its cursor left to read.
  const q = { startTime: w.start, endTime: w.end, limit: Number.MAX_SAFE_INTEGER, ...(w.cursor === undefined ? {} : { idLessThan: BigInt(w.cursor) }) };
  return series.query(filter ? { ...q, filter } : q).length;
}

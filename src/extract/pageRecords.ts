import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { rowPlan } from '../load/recordMapper.js';
import type { LeanRow } from '../load/recordMapper.js';
import { feeRows } from '../load/feeRows.js';
import { isRecord } from '../load/unreadableEntry.js';
import type { FeeRow } from '../normalize/feeRow.js';
import type { LeanConstants, LeanFees, LeanTarget } from '../load/upsertHistory.js';

const feeSource = { spotOrder: 'spot_orders', spotFill: 'spot_fills', futuresFill: 'futures_fills' } as const;

/** One record of a page made ready to load: its row, and its fee rows when the stream has fees. */
export interface Loaded {
  row: LeanRow;
  fees: readonly FeeRow[];
}

type Plan = ReturnType<typeof rowPlan>;
const plans = new WeakMap<HistoryStream, Plan>();

function planOf(stream: HistoryStream): Plan {
  let plan = plans.get(stream);
  if (plan === undefined) {
    plan = rowPlan({
      resource: stream.name, columns: stream.columns, key: stream.key, parsesFees: stream.fees !== undefined,
    });
    plans.set(stream, plan);
  }
  return plan;
}

/**
 * Builds one record's lean row (with `problems` the pager found, such as a time outside the window) (problems, the column values PostgreSQL cannot derive, raw) and
 * fee rows for a stream; the history pager and the E15 refresh of live orders both load records
 * through it.
 *
 * @example
 * const { row } = toRow(run, spotOrders, single[0], rawOrder);
 */
export function toRow(run: AccountRun, stream: HistoryStream, partition: Partition, raw: unknown, problems: readonly string[] = []): Loaded {
  // A list entry that is not an object has no fields to read: it is kept raw and flagged.
  if (!isRecord(raw)) return { row: planOf(stream).read(raw, partition.columns, problems), fees: [] };
  const fees = stream.fees ? feeRows(stream.fees, raw, run.coinsOf) : undefined;
  const row = planOf(stream).read(raw, partition.columns, fees ? [...problems, ...fees.problems] : problems);
  return { row, fees: fees && fees.problems.length === 0 ? fees.rows : [] };
}

/**
 * Where a stream's rows go, and the values all rows of one partition share.
 *
 * @example
 * const { target, constants } = loadTarget(run, deposits, single[0]);
 */
export function loadTarget(run: AccountRun, stream: HistoryStream, partition: Partition): { target: LeanTarget; constants: LeanConstants } {
  return {
    target: { table: stream.table, key: stream.key, partitionColumns: Object.keys(partition.columns), columns: stream.columns },
    constants: { account: run.account.uid, partition: partition.columns, runId: run.runId },
  };
}

/**
 * The fee rows of a batch by record id, for a stream with fees.
 *
 * @example
 * const fees = pageFees(spotOrders, loaded);
 */
export function pageFees(stream: HistoryStream, rows: readonly Loaded[]): LeanFees | undefined {
  if (!stream.fees) return undefined;
  const byId = new Map<string, readonly FeeRow[]>();
  for (const r of rows) byId.set(r.row.id, r.fees);
  return { source: feeSource[stream.fees], byId };
}

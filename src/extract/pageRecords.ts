import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import { recordRow } from './recordRow.js';
import type { RecordRow } from './recordRow.js';
import { feeRows } from './feeRows.js';
import type { FeeRow } from '../normalize/feeRow.js';
import type { PageFees } from './loadPage.js';

const feeSource = { spotOrder: 'spot_orders', spotFill: 'spot_fills', futuresFill: 'futures_fills' } as const;

/** One record of a page made ready to load: its row, and its fee rows when the stream has fees. */
export interface Loaded {
  row: RecordRow;
  fees: { rows: readonly FeeRow[] } | undefined;
}

/**
 * Builds one record's row (typed columns, problems, raw) and fee rows for a stream; the history
 * pager and the E15 refresh of live orders both load records through it.
 *
 * @example
 * const { row } = toRow(run, spotOrders, single[0], rawOrder);
 */
export function toRow(run: AccountRun, stream: HistoryStream, partition: Partition, raw: Record<string, unknown>): Loaded {
  const fees = stream.fees ? feeRows(stream.fees, raw, run.coinsOf) : undefined;
  const row = recordRow(stream.name, run.account.uid, partition, stream.columns, stream.key, raw, fees?.problems ?? []);
  row.values.push(run.runId);
  return { row, fees: fees && fees.problems.length === 0 ? { rows: fees.rows } : { rows: [] } };
}

/**
 * The fee rows of a page keyed like the upsert reports changed rows.
 *
 * @example
 * const fees = pageFees(run, spotOrders, loaded);
 */
export function pageFees(run: AccountRun, stream: HistoryStream, rows: readonly Loaded[]): PageFees {
  const idColumn = stream.key[stream.key.length - 1] as string;
  const byKey = new Map<string, { sourceId: string; cTime: string | null; rows: readonly FeeRow[] }>();
  for (const r of rows) {
    const sourceId = String(r.row.typed[idColumn] ?? '');
    const cTime = r.row.typed.c_time;
    byKey.set(`${run.account.uid}\u0000${r.row.key}`, { sourceId, cTime: typeof cTime === 'string' ? cTime : null, rows: r.fees?.rows ?? [] });
  }
  return { source: feeSource[stream.fees ?? 'spotOrder'], account: run.account.uid, byKey };
}

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DAY_MS } from '../api/endpoints.js';
import type { HistoryStream, Partition } from './streamDef.js';
import type { PlanSettings } from './windowPlan.js';

/**
 * Where a later run of a `lookbackOpenOnly` stream starts re-reading, so that it asks for no more
 * than what can still change. Inside the look-back only records not final yet (view
 * `open_records`) can change; each can be re-read either by the walk (its window starts at or
 * before it) or by id afterwards (recheckOpen.ts, for every open record older than the first
 * window). Starting at the watermark costs one lookup per open record; starting at an open
 * record's time costs the pages of everything stored since then plus the lookups of the open
 * records before it. The cheapest start wins (the earlier one on a tie); with nothing open it is
 * the watermark, and the run reads only new history.
 *
 * Returns undefined where the rule does not apply (the stream does not declare it, a first run, a
 * partition it cannot tell apart): the plan then uses the whole look-back.
 *
 * @example
 * const lookbackFrom = await lookbackStart(db, spotOrders, uid, single[0], checkpoint, settings);
 */
export async function lookbackStart(
  db: Kysely<any>, stream: HistoryStream, uid: string, partition: Partition, watermark: number | undefined, settings: Pick<PlanSettings, 'lookbackDays'>,
): Promise<number | undefined> {
  const spec = stream.lookbackOpenOnly;
  if (spec === undefined || !stream.mutable || stream.recheckOpen?.by !== 'id' || watermark === undefined) return undefined;
  // A partition's open records carry its key as their partition_hint (view open_records); its
  // stored rows hold it in `partitionColumn`.
  if (partition.key !== 'all' && spec.partitionColumn === undefined) return undefined;
  const openHere = partition.key === 'all' ? sql`true` : sql`partition_hint = ${partition.key}`;
  const storedHere = partition.key === 'all' ? sql`true` : sql`${sql.ref(spec.partitionColumn!)} = ${partition.key}`;
  const from = new Date(watermark - settings.lookbackDays * DAY_MS).toISOString();
  const to = new Date(watermark).toISOString();
  const { rows } = await sql<{ at: string; by_id: number; stored: number }>`
    WITH open AS (
      SELECT since FROM open_records
      WHERE stream = ${stream.name} AND account_uid = ${uid} AND ${openHere} AND since >= ${from}::timestamptz AND since < ${to}::timestamptz
    ), recent AS (
      SELECT ${sql.ref(spec.timeColumn)} AS t FROM ${sql.table(stream.table)}
      WHERE account_uid = ${uid} AND ${storedHere} AND ${sql.ref(spec.timeColumn)} >= ${from}::timestamptz AND ${sql.ref(spec.timeColumn)} < ${to}::timestamptz
    ), start AS (
      SELECT ${to}::timestamptz AS at UNION SELECT since FROM open
    )
    SELECT (extract(epoch FROM s.at) * 1000)::bigint::text AS at,
           (SELECT count(*) FROM open o WHERE o.since < s.at)::int AS by_id,
           (SELECT count(*) FROM recent r WHERE r.t >= s.at)::int AS stored
    FROM start s ORDER BY s.at`.execute(db);
  let best: { at: number; cost: number } | undefined;
  for (const r of rows) {
    const cost = r.by_id + Math.ceil(r.stored / stream.limit);
    if (best === undefined || cost < best.cost) best = { at: Number(r.at), cost };
  }
  return best?.at ?? watermark;
}

import type { HistoryRecords, HistoryResource, PartitionKey, Series } from '../world.js';
import type { RequestContext } from './RequestContext.js';
import type { RequestParams } from './RequestParams.js';
import type { TimeWindow } from './resolveWindow.js';
import { callerOf } from './RequestContext.js';

/** A record filter; `where` lists the field equalities it checks, so a series can skip known misses. */
export type RecordFilter<T> = (((record: T) => boolean) & { where?: readonly (readonly [string, string])[] }) | undefined;

/** The caller's series of one resource. */
export function seriesOf<R extends HistoryResource>(ctx: RequestContext, resource: R, partition: PartitionKey = 'all'): Series<HistoryRecords[R]> {
  return ctx.world.series(callerOf(ctx).uid, resource, partition);
}

/**
 * One page of history, newest first: the time window and the idLessThan cursor both apply (a
 * pager walks a window page by page), plus equality filters.
 *
 * @example
 * historyPage(series, { startTime, endTime }, cursor, 100, byParams(params, { coin: 'coin' }));
 */
export function historyPage<T>(series: Series<T>, window: TimeWindow, idLessThan: bigint | undefined, limit: number, filter: RecordFilter<T>): T[] {
  return series.query({
    ...window, ...(idLessThan === undefined ? {} : { idLessThan }), limit,
    ...(filter ? { filter } : {}), ...(filter?.where ? { where: filter.where } : {}),
  });
}

/** An explicit id outranks the window and the cursor (api-notes.md filter precedence). */
export function lookupById<T>(series: Series<T>, id: string, filter: RecordFilter<T>): T[] {
  const record = series.get(id);
  return record !== undefined && (!filter || filter(record)) ? [record] : [];
}

/**
 * The order endpoints' filter precedence (api-notes.md) in one place: an explicit orderId, then a
 * clientOid, then the time window with the idLessThan cursor.
 *
 * @example
 * orderPage(series, ctx.params, windowOf(ctx), ctx.params.id('idLessThan'), pageLimit(ctx), filter);
 */
export function orderPage<T extends { clientOid: string }>(
  series: Series<T>, params: RequestParams, window: TimeWindow, idLessThan: bigint | undefined, limit: number, filter: RecordFilter<T>,
): T[] {
  const orderId = params.optional('orderId');
  if (orderId !== undefined) return lookupById(series, orderId, filter);
  const clientOid = params.optional('clientOid');
  if (clientOid !== undefined) return lookupByField(series, 'clientOid', clientOid, filter);
  return historyPage(series, window, idLessThan, limit, filter);
}

/** A lookup by a non-key field such as clientOid: the newest match only. */
export function lookupByField<T>(series: Series<T>, field: keyof T & string, value: string, filter: RecordFilter<T>): T[] {
  return series.query({ limit: 1, filter: (r) => r[field] === value && (!filter || filter(r)) });
}

/**
 * An equality filter built from the request's optional parameters (plus `fixed` field values,
 * and an opaque `extra` test), or undefined when there is none (so the series can take its fast
 * path).
 *
 * @example
 * byParams(params, { coin: 'coin', symbol: 'symbol' })
 * byParams(params, { symbol: 'symbol' }, undefined, { planType: 'track_plan' })
 */
export function byParams<T>(params: RequestParams, fields: Record<string, keyof T & string>, extra?: (r: T) => boolean, fixed?: Partial<Record<keyof T & string, string>>): RecordFilter<T> {
  const checks: [keyof T & string, string][] = [];
  for (const [param, field] of Object.entries(fields)) {
    const v = params.optional(param);
    if (v !== undefined) checks.push([field, v]);
  }
  for (const [field, v] of Object.entries(fixed ?? {}) as [keyof T & string, string][]) checks.push([field, v]);
  if (checks.length === 0) return extra;
  // A loop, not checks.every(closure): this runs for every record a filtered page looks at.
  const filter = (r: T): boolean => {
    for (const [f, v] of checks) if ((r[f] as unknown) !== v) return false;
    return !extra || extra(r);
  };
  return Object.assign(filter, { where: checks });
}

import { parseExchangeTime } from '../normalize/parseExchangeTime.js';
import type { Page } from './streamDef.js';

/** What the pager may do with one page, after checking it against what it asked for. */
export interface PageVerdict {
  /** The records to load, each with the problems the check found on it (outside the window). */
  readonly flagged: ReadonlyMap<Record<string, unknown>, string>;
  /** The cursor for the next page, read only from records inside the window. */
  readonly next: string | undefined;
  /**
   * The page's smallest id when `next` is the second smallest, so that the next page must start
   * with that record again (`PageRequest.overlap`); undefined when no overlap was arranged.
   */
  readonly overlap: string | undefined;
  /** The record holding `overlap`: the pager loads it with the next page, once that confirms it. */
  readonly overlapRecord: Record<string, unknown> | undefined;
  /** The window holds nothing more after this page. */
  readonly done: boolean;
  /** Set when the page cannot be walked on without risking a gap: the partition must stop. */
  readonly fault?: string;
  /**
   * The records whose ids an order check doubts (either side of an order break, an id at or
   * above the cursor asked for, the first record above the overlap): one of them may carry a
   * false id, so a faulted page is stored without them (a record stored under a false id would
   * be a phantom beside the true one). Empty when the page has no fault.
   */
  readonly doubted: ReadonlySet<Record<string, unknown>>;
}

/** What the pager asked for. */
export interface PageRequest {
  readonly start: number;
  readonly end: number;
  /** The idLessThan sent, if any. */
  readonly cursor: string | undefined;
  readonly limit: number;
  readonly idField: string;
  readonly timeField: string;
  /** The previous page's smallest id, when the cursor was set to overlap it (`PageVerdict.overlap`). */
  readonly overlap?: string | undefined;
}

const numericId = /^\d{1,30}$/;

/**
 * Checks a page against the request that fetched it, so that no answer of a buggy or hostile
 * exchange can move the cursor past records the window still holds:
 * - a record whose time lies outside [start, end) is flagged and kept, but its id never sets the
 *   cursor (the window it belongs to reads it again);
 * - the records inside the window must come newest first (ids never going up) and below the
 *   cursor asked for; otherwise which records lie between the pages is unknown: a fault;
 * - a full page must give a cursor below the one asked for; one that does not move (page 2 the
 *   same as page 1) or a full page without any cursor is a fault, not the end of the window;
 * - a cursor the exchange names (endId, minId) must not lie below the page's own smallest id,
 *   which would skip records; only a full page's is checked, as only a full page's is used;
 * - the next cursor is the page's second smallest id, so the next page must begin with the last
 *   record of this one again. If it begins above it, that last record's id was false (far below
 *   the others, at the end of the page where the order check cannot see it) and records between
 *   were about to be skipped: a fault. It may begin below it (a current order that left in
 *   between). This costs one record per page (about 1% more requests).
 * A short page ends the window. A fault condemns the cursor, not the records: the pager still
 * stores the faulted page's records (the upsert is idempotent) and moves no checkpoint past them,
 * all but those whose ids an order check doubts (`doubted`), which a false id may be among.
 *
 * @example
 * const v = checkPage(page, { start, end, cursor: undefined, limit: 100, idField: 'tradeId', timeField: 'cTime' });
 * if (v.fault) throw pagingFault(...);
 */
export function checkPage(page: Page, req: PageRequest): PageVerdict {
  const flagged = new Map<Record<string, unknown>, string>();
  const cursor = req.cursor === undefined ? undefined : canonicalId(req.cursor);
  const doubted = new Set<Record<string, unknown>>();
  let previous: string | undefined;
  let previousRecord: Record<string, unknown> | undefined;
  let first: string | undefined;
  let firstRecord: Record<string, unknown> | undefined;
  let smallest: string | undefined;
  let smallestRecord: Record<string, unknown> | undefined;
  let secondSmallest: string | undefined;
  let fault: string | undefined;
  for (const r of page.records) {
    const ms = timeOf(r[req.timeField]);
    if (ms !== undefined && (ms < req.start || ms >= req.end)) {
      flagged.set(r, `${req.timeField}: ${new Date(ms).toISOString()} lies outside the requested window ${new Date(req.start).toISOString()} .. ${new Date(req.end).toISOString()}; the exchange sent it with that window's page (kept, flagged, not used as the cursor)`);
      continue;
    }
    const raw = r[req.idField];
    const text = typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw;
    if (typeof text !== 'string' || !numericId.test(text)) continue;
    const id = canonicalId(text);
    if (cursor !== undefined && compareIds(id, cursor) >= 0) {
      fault ??= `the page asked for ids below ${req.cursor} holds ${req.idField} ${text}`;
      doubted.add(r);
    }
    if (previous !== undefined && compareIds(id, previous) > 0) {
      fault ??= `the page is not newest first (${req.idField} ${previous} is followed by ${text}), so what lies between the pages is unknown`;
      doubted.add(r);
      doubted.add(previousRecord!);
    }
    previous = id;
    previousRecord = r;
    if (first === undefined) {
      first = id;
      firstRecord = r;
    }
    if (smallest === undefined || compareIds(id, smallest) < 0) {
      if (smallest !== undefined) secondSmallest = smallest;
      smallest = id;
      smallestRecord = r;
    } else if (compareIds(id, smallest) > 0 && (secondSmallest === undefined || compareIds(id, secondSmallest) < 0)) {
      secondSmallest = id;
    }
  }
  if (req.overlap !== undefined && first !== undefined && compareIds(first, canonicalId(req.overlap)) > 0) {
    doubted.add(firstRecord!);
    fault ??= `the page starts at ${req.idField} ${first}, above the last record of the page before (${req.overlap}), so that record's id was out of order and records between them would have been skipped`;
  }
  let next = smallest;
  const full = page.records.length + page.others.length >= req.limit;
  // A page that is not full ends the window: its cursor fields are never used, so they are not
  // checked (the official E13 sample has maxId/minId "1" beside order 121211212122).
  if (full && page.cursorFromServer && page.next !== undefined) {
    if (!numericId.test(page.next)) fault ??= `the page's cursor "${page.next}" is not a number`;
    else if (smallest !== undefined && compareIds(canonicalId(page.next), smallest) < 0) fault ??= `the page's cursor ${page.next} lies below its smallest ${req.idField} ${smallest}, which would skip records`;
    else if (smallest === undefined) next = page.next;
  }
  // Overlap the next page with this one's last record (see above).
  const overlap = full && secondSmallest !== undefined ? smallest : undefined;
  if (overlap !== undefined) next = secondSmallest;
  if (full && fault === undefined) {
    if (next === undefined) fault = `a full page (${req.limit} entries) came without a usable cursor`;
    else if (cursor !== undefined && compareIds(canonicalId(next), cursor) >= 0) fault = `the cursor did not move down (asked for ids below ${req.cursor}, the full page's cursor is ${next})`;
  }
  const overlapRecord = overlap === undefined ? undefined : smallestRecord;
  return fault === undefined
    ? { flagged, next, overlap, overlapRecord, done: !full, doubted: noneDoubted }
    : { flagged, next, overlap, overlapRecord, done: false, fault, doubted };
}

const noneDoubted: ReadonlySet<Record<string, unknown>> = new Set();

const plainMs = /^\d{13}$/;

// A record's time in ms, or undefined when it has none that reads (checkRecord flags that).
// The usual 13-digit text skips the general parser: this runs for every record.
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'string' && plainMs.test(value)) return Number(value);
  const t = parseExchangeTime(value);
  return t !== null && t.ok ? Number(t.ms) : undefined;
}

// Digits without leading zeros, so that ids compare by length, then as text (no BigInt per record).
function canonicalId(digits: string): string {
  return digits.length > 1 && digits.startsWith('0') ? digits.replace(/^0+(?=\d)/, '') : digits;
}

function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

import type { AccountRun } from './accountRun.js';
import type { HistoryStream, Partition } from './streamDef.js';
import type { Window } from './windowPlan.js';
import type { LeanRow } from '../load/recordMapper.js';
import { toRow } from './pageRecords.js';
import { checkPage } from './pageCheck.js';
import { pagingFault } from './pagingFault.js';
import { parseExchangeTime } from '../normalize/parseExchangeTime.js';
import type { TradeledgerError } from '../errors.js';

/** One page of a window, checked against its request and mapped to rows. */
export interface WindowPage {
  /** The rows to load with this page (the record held back from the page before included). */
  readonly rows: readonly LeanRow[];
  /** The cursor for the next page (the checkpoint's cursor once this page commits). */
  readonly next: string | undefined;
  /** The window's last page. */
  readonly done: boolean;
  /** Current-state streams: the oldest time of a record on the page inside the window. */
  readonly oldest: number | undefined;
  /**
   * The page failed a paging check (EXCHANGE_PAGING_FAULT): its rows are still to be stored (the
   * upsert is idempotent), `next` is the cursor this page was asked with (so the checkpoint does
   * not move), and the caller throws this once they are committed.
   */
  readonly fault?: TradeledgerError;
}

/**
 * The pages of one window, newest to oldest by the stream's cursor, one request after another,
 * the next page fetched while the caller loads this one. Every page is checked against its
 * request before anything of it counts (`checkPage`): a cursor that does not move or ids out of
 * order end the walk with `EXCHANGE_PAGING_FAULT` (`WindowPage.fault`: the page's records are
 * stored, the cursor stays), and a record outside the window is flagged and never sets the cursor. A full page's last record is held back until the next page confirms its id.
 *
 * @example
 * const pages = new WindowPages(run, deposits, single[0], window, onRequest);
 * for (let page = await pages.next(); ; page = await pages.next()) { ...; if (page.done) break; }
 */
export class WindowPages {
  #cursor: string | undefined;
  #pending: Promise<unknown>;
  #pageNo = 0;
  // The last record of the page before, which the next page must begin with (see checkPage). It
  // is held back until that page confirms it, so a record under a false id is never stored.
  #overlap: string | undefined;
  #held: LeanRow | undefined;

  constructor(
    private readonly run: AccountRun,
    private readonly stream: HistoryStream,
    private readonly partition: Partition,
    private readonly window: Window,
    private readonly onRequest: () => void,
  ) {
    this.#cursor = window.cursor;
    this.#pending = this.#fetch(this.#cursor);
  }

  /**
   * The next page. With `probe`, a first page that comes back full is not mapped and nothing is
   * fetched after it: 'full' tells the caller to walk the window in parts instead (from scratch,
   * so no part of it can be missed or counted twice), at the price of that one request.
   */
  async next(probe = false): Promise<WindowPage | 'full'> {
    const { run, stream, partition, window } = this;
    const page = stream.readPage(await this.#pending);
    this.onRequest();
    this.#pageNo++;
    const cursor = this.#cursor;
    const verdict = checkPage(page, { start: window.start, end: window.end, cursor, limit: stream.limit, idField: stream.idField, timeField: stream.timeField, overlap: this.#overlap });
    if (verdict.fault !== undefined) {
      // The cursor cannot be trusted, the records can (all but those whose ids the order checks
      // doubt): they are stored, nothing is fetched after them and the checkpoint stays where
      // this page was asked for. The record held back from
      // the page before is not (this page did not confirm its id); the next run reads it again.
      const rows: LeanRow[] = [];
      for (const raw of page.records) {
        if (verdict.doubted.has(raw)) continue;
        const outside = verdict.flagged.get(raw);
        rows.push(toRow(run, stream, partition, raw, outside === undefined ? [] : [outside]));
      }
      for (const entry of page.others) rows.push(toRow(run, stream, partition, entry));
      this.#held = undefined;
      return { rows, next: cursor, done: false, oldest: undefined, fault: pagingFault(stream.name, stream.endpoint, window, this.#pageNo, verdict.fault) };
    }
    const { next, done } = verdict;
    if (probe && !done && this.#pageNo === 1 && cursor === undefined) return 'full';
    // Fetch the next page while this one is mapped and loaded: the two overlap instead of taking
    // turns. If the load fails the prefetch is abandoned; the no-op catch keeps its failure from
    // surfacing as an unhandled rejection (the load's error is the one that counts).
    if (!done) {
      this.#pending = this.#fetch(next);
      this.#pending.catch(() => {});
    }
    // The held record goes with this page (which repeats it, or lost it as a current order that
    // left in between); one key in one batch is loaded once.
    const rows: LeanRow[] = this.#held ? [this.#held] : [];
    this.#held = undefined;
    let oldest: number | undefined;
    for (const raw of page.records) {
      const outside = verdict.flagged.get(raw);
      const row = toRow(run, stream, partition, raw, outside === undefined ? [] : [outside]);
      if (raw === verdict.overlapRecord) this.#held = row;
      else rows.push(row);
      if (stream.current && outside === undefined) {
        const t = parseExchangeTime(raw[stream.timeField]);
        if (t !== null && t.ok) oldest = Math.min(oldest ?? Infinity, Number(t.ms));
      }
    }
    for (const entry of page.others) rows.push(toRow(run, stream, partition, entry));
    this.#cursor = next;
    this.#overlap = verdict.overlap;
    return { rows, next, done, oldest };
  }

  #fetch(at: string | undefined): Promise<unknown> {
    const params: Record<string, string> = {
      ...this.partition.params, startTime: String(this.window.start), endTime: String(this.window.end), limit: String(this.stream.limit),
    };
    if (at !== undefined) params.idLessThan = at;
    return this.run.call(this.stream.endpoint, params);
  }
}

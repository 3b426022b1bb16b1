import type { Kysely } from 'kysely';
import type { FeeRow } from '../normalize/feeRow.js';
import { loadBatch } from './loadBatch.js';
import type { BatchLoad } from './loadBatch.js';
import type { UpsertCounts } from './columnTypes.js';
import type { LeanFees } from './upsertHistory.js';
import type { LeanRow } from './recordMapper.js';

/** SQL text with its parameters: a checkpoint committed in the statement that loads its pages. */
export interface Statement {
  readonly text: string;
  readonly params: unknown[];
}

// Consecutive pages commit together, up to this many rows or this long after the first of them
// arrived: one larger statement costs PostgreSQL far less per row than many 100-row ones. Still
// atomic: the checkpoint written is the last page's, in the same commit.
const batchRows = 1000;
const batchMs = 250;

/** Where a loader's batches go: the table, the values its rows share, the fee source, whether rows are stamped as seen. */
export type BatchTarget = Pick<BatchLoad, 'target' | 'constants' | 'touchSeen'> & {
  /** The `fees.source` of the stream's fee rows; absent for a stream without fees. */
  readonly feeSource?: string | undefined;
};

/**
 * Gathers the pages of one window into batches and commits each batch with the checkpoint of its
 * last page, in one statement (`loadBatch`). Loads run one at a time, in page order, while the
 * caller fetches the next pages; at most one load runs and one waits behind it, so memory stays
 * bounded (three batches at most).
 *
 * @example
 * const loader = new BatchLoader(db, { target, constants }, (got, pages) => count(got, pages));
 * await loader.add(rows, checkpoint, done, stream.limit);
 * await loader.finish();
 */
export class BatchLoader {
  #rows: LeanRow[] = [];
  #pages = 0;
  #started = 0;
  #checkpoint: Statement | undefined;
  #loading: Promise<void> = Promise.resolve();
  #queued: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<any>,
    private readonly to: BatchTarget,
    private readonly onLoaded: (counts: UpsertCounts, pages: number) => void,
  ) {}

  /**
   * Adds one page's rows and the checkpoint that says the page was read. The batch commits when
   * the page is the window's last, when the next page (`nextRows` more) would pass the row limit,
   * or when the batch's first page came in 250 ms ago.
   */
  async add(rows: readonly LeanRow[], checkpoint: Statement, last: boolean, nextRows: number): Promise<void> {
    if (this.#pages === 0) this.#started = Date.now();
    for (const r of rows) this.#rows.push(r);
    this.#pages++;
    this.#checkpoint = checkpoint;
    if (last || this.#rows.length + nextRows > batchRows || Date.now() - this.#started >= batchMs) {
      await this.#queued;
      this.#queued = this.#loading;
      this.#flush();
    }
  }

  /** Waits for every batch to commit; throws a load's failure. */
  async finish(): Promise<void> {
    await this.#loading;
  }

  /**
   * After a fetch failed for good: commits the pages already read (with their checkpoint), so the
   * next run resumes after them, and waits for it. A load failure then is left to the caller's error.
   */
  async abandon(): Promise<void> {
    if (this.#pages > 0 && this.#checkpoint) this.#flush();
    await this.#loading.catch(() => {});
  }

  // A load's failure surfaces at the next add that waits for it, or at finish; the no-op catch
  // only keeps it from being reported as unhandled in between.
  #flush(): void {
    const rows = this.#rows;
    const pages = this.#pages;
    const alongside = this.#checkpoint!;
    this.#rows = [];
    this.#pages = 0;
    this.#loading = this.#loading.then(async () => {
      const fees = this.to.feeSource === undefined ? undefined : batchFees(this.to.feeSource, rows);
      const got = await loadBatch(this.db, {
        target: this.to.target, constants: this.to.constants, rows, ...(fees ? { fees } : {}), touchSeen: this.to.touchSeen ?? false, alongside,
      });
      this.onLoaded(got, pages);
    });
    this.#loading.catch(() => {});
  }
}

/**
 * The fee rows of a batch by record id.
 *
 * @example
 * const fees = batchFees('spot_orders', rows);
 */
export function batchFees(source: string, rows: readonly LeanRow[]): LeanFees {
  const byId = new Map<string, readonly FeeRow[]>();
  for (const r of rows) byId.set(r.id, r.fees);
  return { source, byId };
}

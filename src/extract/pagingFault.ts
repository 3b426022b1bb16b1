import { TradeledgerError } from '../errors.js';

/**
 * The error a partition stops with when a page of the exchange cannot be walked on without
 * risking a gap (a cursor that does not move, ids out of order, a cursor below the page). The
 * pages before it are committed with their checkpoint and the watermark stays, so the next run
 * reads the rest of the window again.
 *
 * @example
 * throw pagingFault('spotFills', 'X2', { start, end }, 2, 'the cursor did not move down (...)');
 */
export function pagingFault(stream: string, endpoint: string, window: { start: number; end: number }, page: number, problem: string): TradeledgerError {
  const span = `${new Date(window.start).toISOString()} .. ${new Date(window.end).toISOString()}`;
  return new TradeledgerError('EXCHANGE_PAGING_FAULT',
    `${stream} (${endpoint}), window ${span}, page ${page}: ${problem}; the cursor cannot be trusted, so this partition stops here (nothing after the last good page is skipped, its watermark stays)`,
    {
      kind: 'exchange', retryable: false,
      hint: 'Run the sync again later: it reads the window again from the last good page. If it keeps happening, the exchange is serving broken pages; report it to them.',
      details: { stream, endpoint, windowStart: window.start, windowEnd: window.end, page },
    });
}

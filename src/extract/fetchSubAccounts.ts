import type { SnapshotCall } from './streamDef.js';
import { listWithCursor } from './pageReaders.js';
import { TradeledgerError } from '../errors.js';

const readPage = listWithCursor(['subAccountList'], 'endId', 'subAccountUid');
const limit = 500;

/**
 * Every virtual sub-account of a main account (E10), following endId (a Number in the spec's
 * sample) until a short page. A full page whose endId is missing or does not move is an exchange
 * fault, not the end of the list: stopping there would leave the remaining sub-accounts (and so
 * their whole history) out of the sync without a word, so it throws instead.
 *
 * @example
 * const subs = await fetchSubAccounts((e, p) => client.request(e, p));
 */
export async function fetchSubAccounts(call: SnapshotCall): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const read = readPage(await call('subAccounts', { limit: String(limit), ...(cursor ? { idLessThan: cursor } : {}) }));
    all.push(...read.records);
    if (read.records.length + read.others.length < limit) return all;
    if (read.next === undefined || read.next === cursor) {
      const problem = read.next === undefined ? 'a full page came without an endId' : `the endId did not move (${read.next} again)`;
      throw new TradeledgerError('EXCHANGE_PAGING_FAULT',
        `subAccounts (E10), page ${page}: ${problem}; the sub-account list cannot be walked on, so it stops here instead of leaving sub-accounts out`,
        {
          kind: 'exchange', retryable: false,
          hint: 'Run the sync again later. If it keeps happening, the exchange is serving broken pages; report it to them.',
          details: { stream: 'subAccounts', endpoint: 'E10', page },
        });
    }
    cursor = read.next;
  }
}

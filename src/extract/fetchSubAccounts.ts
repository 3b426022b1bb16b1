import type { SnapshotCall } from './streamDef.js';
import { listWithCursor } from './pageReaders.js';

const readPage = listWithCursor(['subAccountList'], 'endId', 'subAccountUid');
const limit = 500;

/**
 * Every virtual sub-account of a main account (E10), following endId (a Number in the spec's
 * sample) until a short page.
 *
 * @example
 * const subs = await fetchSubAccounts((e, p) => client.request(e, p));
 */
export async function fetchSubAccounts(call: SnapshotCall): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = readPage(await call('subAccounts', { limit: String(limit), ...(cursor ? { idLessThan: cursor } : {}) }));
    all.push(...page.records);
    if (page.records.length + page.others.length < limit || page.next === undefined || page.next === cursor) return all;
    cursor = page.next;
  }
}

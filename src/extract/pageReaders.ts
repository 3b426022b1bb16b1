import type { Page } from './streamDef.js';

type Raw = Record<string, unknown>;

/**
 * Page readers for the shapes the history endpoints answer with. Each returns the records and
 * the cursor for the next (older) page; `null`, `""` and a missing list all mean "empty".
 *
 * @example
 * readPage: arrayBySmallestId('orderId') // E20: data[], cursor = smallest orderId
 */
export function arrayBySmallestId(idField: string): (data: unknown) => Page {
  return (data) => {
    const { records, others } = splitEntries(data);
    return { records, others, next: smallestId(records, idField), cursorFromServer: false };
  };
}

/**
 * A wrapper object holding a list under one of several names plus an id cursor field.
 *
 * @example
 * readPage: listWithCursor(['entrustedList', 'resultList'], 'endId', 'orderId')
 */
export function listWithCursor(listNames: readonly string[], cursorField: string, idField: string): (data: unknown) => Page {
  return (data) => {
    const wrapper = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Raw) : {};
    const listName = listNames.find((n) => Array.isArray(wrapper[n]));
    const { records, others } = splitEntries(listName === undefined ? [] : wrapper[listName]);
    const cursor = wrapper[cursorField];
    const fromServer = (typeof cursor === 'string' && cursor !== '') || typeof cursor === 'number';
    const next = fromServer ? String(cursor) : smallestId(records, idField);
    return { records, others, next, cursorFromServer: fromServer };
  };
}

function splitEntries(value: unknown): { records: Raw[]; others: unknown[] } {
  const records: Raw[] = [];
  const others: unknown[] = [];
  if (!Array.isArray(value)) return { records, others };
  for (const r of value) {
    if (r !== null && typeof r === 'object' && !Array.isArray(r)) records.push(r as Raw);
    else others.push(r);
  }
  return { records, others };
}

/**
 * The smallest numeric id among records, as text; undefined when none has one.
 *
 * @example
 * smallestId([{ id: '12' }, { id: '9' }], 'id') // '9'
 */
export function smallestId(records: readonly Raw[], idField: string): string | undefined {
  let best: bigint | undefined;
  let bestText: string | undefined;
  for (const r of records) {
    const id = r[idField];
    if (typeof id !== 'string' || !/^\d+$/.test(id)) continue;
    const n = BigInt(id);
    if (best === undefined || n < best) { best = n; bestText = id; }
  }
  return bestText;
}

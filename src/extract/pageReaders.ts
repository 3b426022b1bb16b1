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
    const records = asRecords(data);
    return { records, next: smallestId(records, idField) };
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
    const records = listName === undefined ? [] : asRecords(wrapper[listName]);
    const cursor = wrapper[cursorField];
    const next = typeof cursor === 'string' && cursor !== '' ? cursor
      : typeof cursor === 'number' ? String(cursor) : smallestId(records, idField);
    return { records, next };
  };
}

function asRecords(value: unknown): Raw[] {
  if (!Array.isArray(value)) return [];
  return value.filter((r): r is Raw => r !== null && typeof r === 'object' && !Array.isArray(r));
}

function smallestId(records: readonly Raw[], idField: string): string | undefined {
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

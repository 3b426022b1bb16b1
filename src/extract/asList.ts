/**
 * A response's list of records: an array as is; null, "" or a non-list as empty (some error
 * bodies and empty answers carry `data: []` or `data: null`).
 *
 * @example
 * asList(await call('allPositions', { productType })) // Position-like records
 */
export function asList(data: unknown): Record<string, unknown>[] {
  if (!Array.isArray(data)) return [];
  return data.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r));
}

/**
 * A response's list as it came, entries that are not objects included (the loader keeps them
 * raw and flags them); null, "" or a non-list as empty.
 *
 * @example
 * asEntries(await call('allPositions', { productType })) // [{...}, "garbled", ...]
 */
export function asEntries(data: unknown): unknown[] {
  return Array.isArray(data) ? data : [];
}

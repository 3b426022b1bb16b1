/** The name of the field the unknown-field fault adds: a client must keep it raw, not choke on it. */
export const unknownFieldName = 'sandboxNewField';

/**
 * Copies a response's records with one extra, undocumented field, as when the exchange ships a
 * new field. Records are copied, never mutated: they belong to the world.
 *
 * @example
 * withUnknownField({ entrustedList: [{ orderId: '1' }], endId: '1' })
 */
export function withUnknownField(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(addField);
  if (typeof data !== 'object' || data === null) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) if (Array.isArray(v)) out[k] = v.map(addField);
  return out;
}

function addField(record: unknown): unknown {
  return typeof record === 'object' && record !== null && !Array.isArray(record)
    ? { ...(record as Record<string, unknown>), [unknownFieldName]: 'unannounced' }
    : record;
}

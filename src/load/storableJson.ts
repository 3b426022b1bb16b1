import type { LeanRow } from './recordMapper.js';

/** What a record with NUL characters is flagged with. */
export const nulProblem = 'the record holds NUL characters (\\u0000), which PostgreSQL cannot store in text or jsonb; they are stored as U+FFFD';

/**
 * What a record holding U+FFFD is flagged with. The client decodes answers as UTF-8 and turns
 * bytes that are not UTF-8 into U+FFFD, so the character is the only trace such bytes leave.
 */
export const replacementProblem = 'the record holds U+FFFD, the replacement character: the exchange sent bytes there that are not valid UTF-8 (or that character itself), so the text around it may be damaged';

/**
 * The JSON arrays a batch (history or snapshot) travels as (raw records, and the values sent beside them), made
 * storable: PostgreSQL's text and jsonb refuse U+0000, and one such character would fail the
 * whole batch on every run. The usual batch costs one search of its JSON text; a record that
 * does hold NUL is stored with U+FFFD in its place and flagged.
 *
 * @example
 * const { raws, sets } = leanBatchJson(rows);
 */
export function leanBatchJson(rows: readonly LeanRow[]): { raws: string; sets: string } {
  const raws = rawArray(rows);
  const sets = JSON.stringify(rows.map((r) => r.set));
  if (!raws.includes('\\u0000') && !sets.includes('\\u0000') && !raws.includes('\uFFFD')) return { raws, sets };
  const fixed = rows.map(storable);
  return { raws: rawArray(fixed), sets: JSON.stringify(fixed.map((r) => r.set)) };
}

// The rows' raw records as one JSON array: their texts joined.
function rawArray(rows: readonly LeanRow[]): string {
  return `[${rows.map((r) => r.rawJson).join(',')}]`;
}

function storable(row: LeanRow): LeanRow {
  const raw = withoutNul(JSON.parse(row.rawJson));
  const set = withoutNul(row.set);
  const replaced = row.rawJson.includes('\uFFFD');
  if (!raw.changed && !set.changed && !replaced) return row;
  const problems = [...row.problems, ...(raw.changed || set.changed ? [nulProblem] : []), ...(replaced ? [replacementProblem] : [])];
  return { ...row, rawJson: JSON.stringify(raw.value), set: { ...(set.value as Record<string, unknown> | null), problems }, problems };
}

// The value with every U+0000 in its strings (keys included) replaced by U+FFFD.
function withoutNul(value: unknown): { value: unknown; changed: boolean } {
  if (typeof value === 'string') return value.includes('\u0000') ? { value: value.replaceAll('\u0000', '\uFFFD'), changed: true } : { value, changed: false };
  if (Array.isArray(value)) {
    const items = value.map(withoutNul);
    return items.some((i) => i.changed) ? { value: items.map((i) => i.value), changed: true } : { value, changed: false };
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = withoutNul(k);
      const item = withoutNul(v);
      changed ||= key.changed || item.changed;
      out[key.value as string] = item.value;
    }
    return changed ? { value: out, changed } : { value, changed: false };
  }
  return { value, changed: false };
}

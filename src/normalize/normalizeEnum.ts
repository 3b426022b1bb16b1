import { enumSpellings } from './enumSpellings.js';
import type { EnumField } from './enumSpellings.js';

export type EnumValue =
  | { ok: true; value: string; raw: string }
  | { ok: false; raw: string; problem: string };

const lookups = new Map<EnumField, Map<string, string>>(
  (Object.keys(enumSpellings) as EnumField[]).map((field) => {
    const byRaw = new Map<string, string>();
    for (const [value, spellings] of Object.entries(enumSpellings[field] as Record<string, readonly string[]>)) {
      byRaw.set(value.toLowerCase(), value);
      for (const spelling of spellings) byRaw.set(spelling.toLowerCase(), value);
    }
    return [field, byRaw];
  }),
);

/**
 * Maps a raw enum spelling to the field's internal value, keeping the raw text beside it.
 * Empty, null or absent gives null; an unknown spelling is flagged, never thrown.
 *
 * @example
 * normalizeEnum('side', 'systemRepay-selll'); // { ok: true, value: 'systemRepay-sell', raw: 'systemRepay-selll' }
 * normalizeEnum('transferStatus', 'Moved');   // { ok: false, raw: 'Moved', problem: 'unknown transferStatus "Moved"; ...' }
 */
export function normalizeEnum(field: EnumField, raw: unknown): EnumValue | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const text = typeof raw === 'string' ? raw : String(raw);
  const value = lookups.get(field)?.get(text.trim().toLowerCase());
  if (value !== undefined) return { ok: true, value, raw: text };
  const known = Object.keys(enumSpellings[field]).join(', ');
  return { ok: false, raw: text, problem: `unknown ${field} ${JSON.stringify(text.slice(0, 60))}; known values: ${known}` };
}

/**
 * The other direction: the wire spellings that map to an internal value (for SQL filters and docs).
 * normalizeEnum also accepts the internal value itself, so normalizing twice changes nothing.
 *
 * @example
 * spellingsOf('orderStatus', 'cancelled'); // ['cancelled', 'canceled']
 */
export function spellingsOf(field: EnumField, value: string): string[] {
  const spellings = (enumSpellings[field] as Record<string, readonly string[] | undefined>)[value];
  return spellings === undefined ? [] : [...spellings];
}

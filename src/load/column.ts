import { toDecimalString } from '../normalize/decimalString.js';
import { parseExchangeTime } from '../normalize/parseExchangeTime.js';

/**
 * How one typed column is read from a raw record. A value that fails to parse becomes NULL plus a
 * problem; the raw record is always kept, so a parser fix can re-derive the column later.
 */
export type Column =
  | { readonly type: 'text'; readonly field: string }
  | { readonly type: 'numeric'; readonly field: string }
  | { readonly type: 'ms'; readonly field: string }
  | { readonly type: 'textArray'; readonly field: string }
  | { readonly type: 'json'; readonly field: string }
  | { readonly type: 'jsonText'; readonly field: string };

/** @example columns: { symbol: text('symbol') } */
export const text = (field: string): Column => ({ type: 'text', field });
/** @example columns: { price: num('price') } */
export const num = (field: string): Column => ({ type: 'numeric', field });
/** @example columns: { c_time: ms('cTime') } */
export const ms = (field: string): Column => ({ type: 'ms', field });
/** @example columns: { perm_list: textArray('permList') } */
export const textArray = (field: string): Column => ({ type: 'textArray', field });
/** @example columns: { fee_detail: json('feeDetail') } (a jsonb column) */
export const json = (field: string): Column => ({ type: 'json', field });
/** A field kept as text even when the wire sends an object (spot order feeDetail is a string). */
export const jsonText = (field: string): Column => ({ type: 'jsonText', field });

export type ColumnValue = string | string[] | null;

/** Decimal text PostgreSQL's numeric reads exactly as it stands. */
export const plainDecimal = /^-?\d{1,30}(\.\d{1,30})?$/;

/**
 * Reads every typed column of one record. Returns the values and the problems found; absent
 * values ("" or null, both seen in the wild) are NULL without a problem, unreadable ones are NULL
 * with a problem naming the field.
 *
 * @example
 * mapColumns({ price: num('price') }, { price: '111,1' })
 * // { values: { price: null }, problems: ['price: not a decimal number: "111,1"'] }
 */
export function mapColumns(columns: Readonly<Record<string, Column>>, record: Record<string, unknown>): { values: Record<string, ColumnValue>; problems: string[] } {
  const values: Record<string, ColumnValue> = {};
  const problems: string[] = [];
  for (const [name, column] of entriesOf(columns)) {
    const raw = record[column.field];
    if (raw === undefined || raw === null || raw === '') {
      values[name] = null;
      continue;
    }
    const read = readColumn(column, raw);
    values[name] = read.value;
    if (read.problem !== undefined) problems.push(`${column.field}: ${read.problem}`);
  }
  return { values, problems };
}

// A stream's column table is fixed; its entry list is built once, not once per record.
const entryLists = new WeakMap<object, [string, Column][]>();
function entriesOf(columns: Readonly<Record<string, Column>>): [string, Column][] {
  let list = entryLists.get(columns);
  if (list === undefined) {
    list = Object.entries(columns);
    entryLists.set(columns, list);
  }
  return list;
}

/**
 * Reads one present (not absent, null or "") value of a typed column.
 *
 * @example
 * readColumn(num('size'), '1.2E-3') // { value: '0.0012' }
 */
export function readColumn(column: Column, raw: unknown): { value: ColumnValue; problem?: string } {
  switch (column.type) {
    case 'text':
      return typeof raw === 'string' ? { value: raw } : { value: JSON.stringify(raw) };
    case 'numeric': {
      // Plain decimal text goes to PostgreSQL as is (numeric parses it exactly); only other forms
      // (exponents, garbage) need the decimal parser.
      if (typeof raw === 'string' && plainDecimal.test(raw)) return { value: raw };
      // decodeBody keeps a wire number as a JS number only when a double holds it exactly.
      const parsed = toDecimalString(typeof raw === 'number' ? String(raw) : raw);
      return parsed.ok ? { value: parsed.value } : { value: null, problem: parsed.problem };
    }
    case 'ms': {
      const parsed = parseExchangeTime(raw);
      if (parsed === null) return { value: null };
      return parsed.ok ? { value: parsed.date.toISOString() } : { value: null, problem: parsed.problem };
    }
    case 'textArray':
      return Array.isArray(raw) && raw.every((v) => typeof v === 'string')
        ? { value: raw as string[] }
        : { value: null, problem: 'expected a list of strings' };
    case 'json':
      return { value: JSON.stringify(raw) };
    case 'jsonText':
      return { value: typeof raw === 'string' ? raw : JSON.stringify(raw) };
  }
}

/**
 * The jsonb columns whose values mapColumns gives as JSON text, for UpsertSpec.jsonText.
 *
 * @example
 * jsonTextColumns({ fee_detail: json('feeDetail'), price: num('price') }) // ['fee_detail']
 */
export function jsonTextColumns(columns: Readonly<Record<string, Column>>): string[] {
  return Object.entries(columns).filter(([, c]) => c.type === 'json').map(([name]) => name);
}

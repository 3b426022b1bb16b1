import { sqlLiteral } from '../db/sqlText.js';
import { toDecimalString } from '../normalize/decimalString.js';
import { parseExchangeTime } from '../normalize/parseExchangeTime.js';
import { sqlEpochMs } from './sqlEpochMs.js';

/** The kinds of typed column a stream declares (see `columnKinds` for what each means). */
export type ColumnType = 'text' | 'numeric' | 'ms' | 'textArray' | 'json' | 'jsonText';

/**
 * How one typed column is read from a raw record. A value that fails to parse becomes NULL plus a
 * problem; the raw record is always kept, so a parser fix can re-derive the column later.
 */
export interface Column {
  readonly type: ColumnType;
  readonly field: string;
}

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

/** A column value as the TypeScript reader gives it: text (JSON text for jsonb), a list of text, or NULL. */
export type ColumnValue = string | string[] | null;

/** Decimal text PostgreSQL's numeric reads exactly as it stands. */
export const plainDecimal = /^-?\d{1,30}(\.\d{1,30})?$/;
const plainMs = /^\d{13}$/;

/**
 * What one kind of column means, both ways: the TypeScript reader and the SQL reader side by
 * side, so the two cannot drift apart (test/extract/leanRows.test.ts holds them equal on every
 * record of a sandbox sync).
 */
export interface ColumnKind {
  /** The TypeScript reader of a present value (not undefined, null or ""): the value stored, or NULL and a problem. */
  readonly read: (raw: unknown) => { value: ColumnValue; problem?: string };
  /**
   * True when the SQL reader, given the raw field, gives what `read` would: the value then
   * travels inside raw only, and PostgreSQL derives the column. Otherwise the mapper sends it.
   */
  readonly passes: (raw: unknown) => boolean;
  /** The SQL reader: the column (of SQL type `type`) from the raw record, aliased `r`; `field` is an SQL literal. */
  readonly fromRaw: (field: string, type: string) => string;
}

// Text fields: ""/null are absent (NULL), text goes as it is; the SQL cast does the rest.
const textFromRaw = (f: string, type: string) => (type === 'text' ? `NULLIF(r->>${f}, '')` : `NULLIF(r->>${f}, '')::${type}`);
const asText = (raw: unknown) => ({ value: typeof raw === 'string' ? raw : JSON.stringify(raw) });
const isString = (raw: unknown) => typeof raw === 'string';

/** Every column kind, its TypeScript reader beside its SQL reader. */
export const columnKinds: Readonly<Record<ColumnType, ColumnKind>> = {
  text: { read: asText, passes: isString, fromRaw: textFromRaw },
  numeric: {
    read(raw) {
      // Plain decimal text goes to PostgreSQL as is (numeric parses it exactly); only other forms
      // (exponents, garbage) need the decimal parser.
      if (typeof raw === 'string' && plainDecimal.test(raw)) return { value: raw };
      // parseJsonLossless(body, 'exact') keeps a wire number as a JS number only when a double holds it exactly.
      const parsed = toDecimalString(typeof raw === 'number' ? String(raw) : raw);
      return parsed.ok ? { value: parsed.value } : { value: null, problem: parsed.problem };
    },
    passes: (raw) => typeof raw === 'string' && plainDecimal.test(raw),
    fromRaw: textFromRaw,
  },
  ms: {
    read(raw) {
      const parsed = parseExchangeTime(raw);
      if (parsed === null) return { value: null };
      return parsed.ok ? { value: parsed.date.toISOString() } : { value: null, problem: parsed.problem };
    },
    passes: (raw) => typeof raw === 'string' && plainMs.test(raw),
    // 13-digit milliseconds only (anything else is sent); integer arithmetic, exact.
    fromRaw: (f) => sqlEpochMs(`NULLIF(r->>${f}, '')::bigint`),
  },
  textArray: {
    read: (raw) => (Array.isArray(raw) && raw.every((v) => typeof v === 'string')
      ? { value: raw as string[] }
      : { value: null, problem: 'expected a list of strings' }),
    passes: () => false,
    fromRaw: (_f, type) => `NULL::${type}`,
  },
  json: {
    read: (raw) => ({ value: JSON.stringify(raw) }),
    passes: () => true,
    fromRaw: (f) => `NULLIF(NULLIF(r->${f}, 'null'::jsonb), '""'::jsonb)`,
  },
  jsonText: { read: asText, passes: isString, fromRaw: textFromRaw },
};

/**
 * Reads one present (not absent, null or "") value of a typed column in TypeScript.
 *
 * @example
 * readColumn(num('size'), '1.2E-3') // { value: '0.0012' }
 */
export function readColumn(column: Column, raw: unknown): { value: ColumnValue; problem?: string } {
  return columnKinds[column.type].read(raw);
}

/**
 * The SQL that gives one typed column of a mapped row: the value the mapper sent in `set`
 * (aliased `o`) when there is one, else the raw field (raw aliased `r`) read as the TypeScript
 * reader would have read it.
 *
 * @example
 * sqlColumn('price', num('price'), 'numeric') // CASE WHEN o ? 'price' THEN (o->>'price')::numeric ELSE NULLIF(r->>'price', '')::numeric END
 */
export function sqlColumn(name: string, column: Column, type: string): string {
  return `CASE WHEN o ? ${sqlLiteral(name)} THEN ${fromSet(name, type)} ELSE ${columnKinds[column.type].fromRaw(sqlLiteral(column.field), type)} END`;
}

/** The SQL for `problems` of a mapped row: the list the mapper sent, or none. */
export const sqlProblems = `CASE WHEN o ? 'problems' THEN ARRAY(SELECT jsonb_array_elements_text(o->'problems')) ELSE '{}'::text[] END`;

// What the mapper sends in `set` is a ColumnValue: text (JSON text for jsonb columns), a list of
// text, or null.
function fromSet(name: string, type: string): string {
  const v = `o->${sqlLiteral(name)}`;
  if (type === 'jsonb') return `(o->>${sqlLiteral(name)})::jsonb`;
  if (type.endsWith('[]')) return `CASE WHEN jsonb_typeof(${v}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(${v}))::${type} END`;
  return `(o->>${sqlLiteral(name)})::${type}`;
}

import { createHash } from 'node:crypto';
import { checkField, shapeFields } from '../normalize/checkRecord.js';
import type { CheckedResource } from '../normalize/recordShapes.js';
import { recordShapes } from '../normalize/recordShapes.js';
import type { FieldSpec } from '../normalize/recordShapes.js';
import { plainDecimal, readColumn } from './column.js';
import { stripSecrets } from '../extract/recordRow.js';
import { isRecord, unreadableEntry } from './unreadableEntry.js';
import { sqlEpochMs } from './sqlEpochMs.js';
import type { Column, ColumnValue } from './column.js';

/**
 * One history record ready to load, in the lean form: the raw record, which PostgreSQL reads
 * most typed columns from, and only the column values it cannot derive from raw by itself.
 */
export interface LeanRow {
  /** The record as received, secrets stripped; stored as `raw` (a list entry that is not an object as it came). */
  readonly raw: unknown;
  /**
   * Values for the columns whose raw text PostgreSQL would read differently (an exponent
   * decimal, a timestamp in seconds, an unreadable value stored as NULL, a missing id's stand-in),
   * plus `problems` when there are any; null for the usual record that needs none.
   */
  readonly set: Record<string, ColumnValue> | null;
  /** The natural key (partition columns and record columns) joined, for de-duplication. */
  readonly key: string;
  /** The key columns' values, in key order. */
  readonly keyValues: readonly string[];
  /** The last key column's value: the record's id (fee rows' source_id). */
  readonly id: string;
  readonly problems: readonly string[];
}

/** What a plan needs to know about the stream it maps. */
export interface RowPlanSpec {
  /** The record shape checkRecord knows (usually the stream's name). */
  readonly resource: string;
  readonly columns: Readonly<Record<string, Column>>;
  /** Key columns after account_uid, partition or record columns. */
  readonly key: readonly string[];
  /** The stream parses feeDetail for its fee rows: those problems stand for the shape check. */
  readonly parsesFees: boolean;
}

const plainMs = /^\d{13}$/;

type Check = readonly [field: string, spec: FieldSpec, covered: 'string' | 'unsigned' | 'always' | null];

/**
 * A stream's record mapper, compiled once: for each record it checks every typed column and every
 * field of the record's shape (each value parsed once), and keeps only what PostgreSQL cannot
 * derive from the raw record (`sqlColumn` gives the SQL that does the deriving). Never throws for
 * bad data: an unreadable value becomes NULL plus a problem, and the raw record is always kept.
 *
 * Why: the typed columns repeat what raw already holds. Sending them beside raw doubled what the
 * sync serialised and PostgreSQL parsed per record; now the usual record travels once.
 *
 * @example
 * const plan = rowPlan({ resource: 'deposits', columns: deposits.columns, key: ['order_id'], parsesFees: false });
 * const row = plan.read({ orderId: '1', size: '1.2E-3', ... }, {}, []); // row.set = { size: '0.0012' }
 */
export function rowPlan(spec: RowPlanSpec): { read: (raw: unknown, partition: Readonly<Record<string, string>>, extraProblems: readonly string[]) => LeanRow } {
  const columns = Object.entries(spec.columns);
  const byField = new Map(columns.map(([, c]) => [c.field, c.type]));
  const checks: Check[] = spec.resource in recordShapes
    ? shapeFields(spec.resource as CheckedResource).map(([field, fieldSpec]) => {
      const kind = fieldSpec.endsWith('?') ? fieldSpec.slice(0, -1) : fieldSpec;
      const type = byField.get(field);
      // A string the column reader parsed as a decimal or a time gave the same problem text
      // checkRecord would: parse it once. feeDetail problems come from the fee parser.
      // An amount the API never sends negative is parsed by the column reader too; only a
      // leading minus sign needs the closer look.
      const covered = (kind === 'decimal' && type === 'numeric') || (kind === 'time' && type === 'ms') ? 'string'
        : kind === 'amount' && type === 'numeric' ? 'unsigned'
          : kind === 'feeDetail' && spec.parsesFees ? 'always' : null;
      return [field, fieldSpec, covered] as const;
    })
    : [];
  return {
    read(source, partition, extraProblems) {
      if (!isRecord(source)) return unreadable(spec, source, partition, extraProblems);
      const raw = stripSecrets(source);
      let set: Record<string, ColumnValue> | null = null;
      const problems: string[] = [];
      const note = (message: string) => { if (!problems.includes(message)) problems.push(message); };
      const keyValues: Record<string, string | null> = {};
      for (const [name, column] of columns) {
        const value = raw[column.field];
        const read = readLean(column, value);
        if (read !== undefined) {
          (set ??= {})[name] = read.value;
          if (read.problem !== undefined) note(`${column.field}: ${read.problem}`);
        }
        if (spec.key.includes(name)) keyValues[name] = read !== undefined ? asKeyText(read.value) : asKeyText(value);
      }
      for (const k of spec.key) {
        // A record without its id is still kept: under a stable stand-in id derived from its content.
        if (k in spec.columns && (keyValues[k] ?? null) === null) {
          const standIn = `missing-id-${createHash('sha256').update(JSON.stringify(raw)).digest('hex').slice(0, 16)}`;
          (set ??= {})[k] = standIn;
          keyValues[k] = standIn;
          note(`${spec.columns[k]?.field ?? k}: the record has no id; stored under ${standIn}`);
        }
      }
      for (const [field, fieldSpec, covered] of checks) {
        const value = raw[field];
        if (covered === 'always' || (covered === 'string' && typeof value === 'string' && value !== '')) continue;
        if (covered === 'unsigned' && typeof value === 'string' && value !== '' && value.charCodeAt(0) !== 45 /* - */) continue;
        const problem = checkField(field, fieldSpec, value);
        if (problem !== null) note(problem.message);
      }
      for (const p of extraProblems) note(p);
      if (problems.length > 0) (set ??= {}).problems = problems;
      const key = spec.key.map((k) => partition[k] ?? keyValues[k] ?? '');
      return { raw, set, key: key.join('\u0000'), keyValues: key, id: key[key.length - 1] ?? '', problems };
    },
  };
}

// A list entry that is not a JSON object (a string, null, a number, an array): nothing can be
// read from it, but it is kept as it came, under a stand-in id derived from its content, and
// flagged, so data-quality.csv shows it (PostgreSQL reads every typed column of it as NULL).
function unreadable(spec: RowPlanSpec, source: unknown, partition: Readonly<Record<string, string>>, extraProblems: readonly string[]): LeanRow {
  const { standIn, problem } = unreadableEntry(source);
  const problems = [problem, ...extraProblems];
  const set: Record<string, ColumnValue> = { problems };
  const key = spec.key.map((k) => {
    if (partition[k] !== undefined) return partition[k];
    if (k in spec.columns) set[k] = standIn;
    return standIn;
  });
  return { raw: source ?? null, set, key: key.join('\u0000'), keyValues: key, id: key[key.length - 1] ?? '', problems };
}

/**
 * The SQL that gives one typed column from a lean row: the value in `set` (aliased `o`) when the
 * sync sent one, else the raw field (raw aliased `r`) read the way the sync would have read it.
 *
 * @example
 * sqlColumn('price', num('price'), 'numeric') // CASE WHEN o ? 'price' THEN (o->>'price')::numeric ELSE NULLIF(r->>'price', '')::numeric END
 */
export function sqlColumn(name: string, column: Column, type: string): string {
  return `CASE WHEN o ? ${lit(name)} THEN ${fromSet(name, type)} ELSE ${fromRaw(column, type)} END`;
}

/** The SQL for `problems` from a lean row: the list the sync sent, or none. */
export const sqlProblems = `CASE WHEN o ? 'problems' THEN ARRAY(SELECT jsonb_array_elements_text(o->'problems')) ELSE '{}'::text[] END`;

// What the sync sends in `set` is a column value as mapColumns gives it: text (JSON text for
// jsonb columns), a list of text, or null.
function fromSet(name: string, type: string): string {
  const v = `o->${lit(name)}`;
  if (type === 'jsonb') return `(o->>${lit(name)})::jsonb`;
  if (type.endsWith('[]')) return `CASE WHEN jsonb_typeof(${v}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(${v}))::${type} END`;
  return `(o->>${lit(name)})::${type}`;
}

function fromRaw(column: Column, type: string): string {
  const f = lit(column.field);
  switch (column.type) {
    case 'text':
    case 'numeric':
    case 'jsonText':
      return type === 'text' ? `NULLIF(r->>${f}, '')` : `NULLIF(r->>${f}, '')::${type}`;
    case 'ms':
      // 13-digit milliseconds only (anything else is sent in `set`); integer arithmetic, exact.
      return sqlEpochMs(`NULLIF(r->>${f}, '')::bigint`);
    case 'json':
      return `NULLIF(NULLIF(r->${f}, 'null'::jsonb), '""'::jsonb)`;
    case 'textArray':
      return `NULL::${type}`;
  }
}

function lit(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

// undefined: PostgreSQL derives the same value from raw. Otherwise the value to send (and its problem).
function readLean(column: Column, raw: unknown): { value: ColumnValue; problem?: string } | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  switch (column.type) {
    case 'text':
    case 'jsonText':
      if (typeof raw === 'string') return undefined;
      break;
    case 'numeric':
      if (typeof raw === 'string' && plainDecimal.test(raw)) return undefined;
      break;
    case 'ms':
      if (typeof raw === 'string' && plainMs.test(raw)) return undefined;
      break;
    case 'json':
      return undefined;
    case 'textArray':
      break;
  }
  return readColumn(column, raw);
}

function asKeyText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

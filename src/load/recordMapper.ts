import { createHash } from 'node:crypto';
import { checkField, shapeFields } from '../normalize/checkRecord.js';
import type { CheckedResource } from '../normalize/recordShapes.js';
import { recordShapes } from '../normalize/recordShapes.js';
import type { FieldSpec } from '../normalize/recordShapes.js';
import type { FeeRow } from '../normalize/feeRow.js';
import { columnKinds } from './column.js';
import type { Column, ColumnKind, ColumnValue } from './column.js';
import { feeRows } from './feeRows.js';
import type { FeeForm, SymbolCoins } from './feeRows.js';
import { isRecord, unreadableEntry } from './unreadableEntry.js';

/**
 * One record ready to load, history or snapshot: the raw record, which PostgreSQL reads most
 * typed columns from, and only the column values it cannot derive from raw by itself.
 */
export interface LeanRow {
  /**
   * The record as received, secrets stripped, as JSON text; stored as `raw` (a list entry that is
   * not an object as it came). Text, not the parsed object: a row waits in its batch for up to a
   * few hundred milliseconds, and one string per record costs the heap far less than the record's
   * object graph (the objects die young instead of being promoted), and the batch's JSON is then
   * a join of these strings.
   */
  readonly rawJson: string;
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
  /** The record's fee rows (one per coin paid); empty without a fee form or when its feeDetail has problems. */
  readonly fees: readonly FeeRow[];
}

/** What a mapper needs to know about the stream it maps. */
export interface MapperSpec {
  /** The record shape checkRecord knows (usually the stream's name). */
  readonly resource: string;
  readonly columns: Readonly<Record<string, Column>>;
  /** Key columns after the account column: partition or record columns. */
  readonly key: readonly string[];
  /** The feeDetail form the records carry, when the stream derives fee rows from it. */
  readonly fees?: FeeForm | undefined;
}

/** Reads one record: the raw entry, the partition's column values, problems the pager found, the symbol book for fees. */
export type RecordMapper = (raw: unknown, partition: Readonly<Record<string, string>>, extraProblems?: readonly string[], coinsOf?: SymbolCoins) => LeanRow;

/** Field names that would hold a secret; stripped from raw before storing (E8 must never keep one). */
const secretFields = new Set(['secretKey', 'secret', 'apiSecret', 'passphrase', 'password']);

type Check = readonly [field: string, spec: FieldSpec, covered: 'string' | 'unsigned' | 'always' | null];

/**
 * A stream's record mapper, compiled once; history and snapshot streams both load through it.
 * For each record it reads every typed column (`columnKinds`), the fee rows when the stream has a
 * fee form, and checks every field of the record's shape, each value parsed once; it keeps only
 * what PostgreSQL cannot derive from the raw record (`sqlColumn` gives the SQL that does). Never
 * throws for bad data: an unreadable value becomes NULL plus a problem, the raw record is always
 * kept, a record without its id is kept under `missing-id-<hash>`, an entry that is not an object
 * under `unreadable-<hash>`.
 *
 * Why: the typed columns repeat what raw already holds. Sending them beside raw doubled what the
 * sync serialised and PostgreSQL parsed per record; now the usual record travels once.
 *
 * @example
 * const map = recordMapper({ resource: 'deposits', columns: deposits.columns, key: ['order_id'] });
 * const row = map({ orderId: '1', size: '1.2E-3', ... }, {}); // row.set = { size: '0.0012' }
 */
export function recordMapper(spec: MapperSpec): RecordMapper {
  const columns: (readonly [string, Column, ColumnKind, boolean])[] = Object.entries(spec.columns)
    .map(([name, c]) => [name, c, columnKinds[c.type], spec.key.includes(name)] as const);
  const byField = new Map(columns.map(([, c]) => [c.field, c.type]));
  const checks: Check[] = spec.resource in recordShapes
    ? shapeFields(spec.resource as CheckedResource).map(([field, fieldSpec]) => {
      const kind = fieldSpec.endsWith('?') ? fieldSpec.slice(0, -1) : fieldSpec;
      const type = byField.get(field);
      // A string the column reader parsed as a decimal or a time gave the same problem text
      // checkRecord would: parse it once. feeDetail problems come from the fee parser, which
      // reads it once for the fee rows. An amount the API never sends negative is parsed by the
      // column reader too; only a leading minus sign needs the closer look.
      const covered = (kind === 'decimal' && type === 'numeric') || (kind === 'time' && type === 'ms') ? 'string'
        : kind === 'amount' && type === 'numeric' ? 'unsigned'
          : kind === 'feeDetail' && spec.fees !== undefined ? 'always' : null;
      return [field, fieldSpec, covered] as const;
    })
    : [];
  const noCoins: SymbolCoins = () => undefined;
  return (source, partition, extraProblems = [], coinsOf = noCoins) => {
    if (!isRecord(source)) return unreadable(spec, source, partition, extraProblems);
    const raw = stripSecrets(source);
    const rawJson = JSON.stringify(raw);
    let set: Record<string, ColumnValue> | null = null;
    const problems: string[] = [];
    const note = (message: string) => { if (!problems.includes(message)) problems.push(message); };
    const keyValues: Record<string, string | null> = {};
    for (const [name, column, kind, inKey] of columns) {
      const value = raw[column.field];
      const present = value !== undefined && value !== null && value !== '';
      if (present && !kind.passes(value)) {
        const read = kind.read(value);
        (set ??= {})[name] = read.value;
        if (read.problem !== undefined) note(`${column.field}: ${read.problem}`);
        if (inKey) keyValues[name] = asKeyText(read.value);
      } else if (inKey) {
        keyValues[name] = present ? asKeyText(value) : null;
      }
    }
    for (const k of spec.key) {
      // A record without its id is still kept: under a stable stand-in id derived from its content.
      if (k in spec.columns && (keyValues[k] ?? null) === null) {
        const standIn = `missing-id-${createHash('sha256').update(rawJson).digest('hex').slice(0, 16)}`;
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
    let fees: readonly FeeRow[] = [];
    if (spec.fees !== undefined) {
      const read = feeRows(spec.fees, raw, coinsOf);
      for (const p of read.problems) note(p);
      if (read.problems.length === 0) fees = read.rows;
    }
    if (problems.length > 0) (set ??= {}).problems = problems;
    const key = spec.key.map((k) => partition[k] ?? keyValues[k] ?? '');
    return { rawJson, set, key: key.join('\u0000'), keyValues: key, id: key[key.length - 1] ?? '', problems, fees };
  };
}

// A list entry that is not a JSON object (a string, null, a number, an array): nothing can be
// read from it, but it is kept as it came, under a stand-in id derived from its content, and
// flagged, so data-quality.csv shows it (PostgreSQL reads every typed column of it as NULL).
function unreadable(spec: MapperSpec, source: unknown, partition: Readonly<Record<string, string>>, extraProblems: readonly string[]): LeanRow {
  const { standIn, problem } = unreadableEntry(source);
  const problems = [problem, ...extraProblems];
  const set: Record<string, ColumnValue> = { problems };
  const key = spec.key.map((k) => {
    if (partition[k] !== undefined) return partition[k];
    if (k in spec.columns) set[k] = standIn;
    return standIn;
  });
  return { rawJson: JSON.stringify(source ?? null), set, key: key.join('\u0000'), keyValues: key, id: key[key.length - 1] ?? '', problems, fees: [] };
}

/**
 * The record without its secret-like fields (the same object when it has none).
 *
 * @example
 * stripSecrets({ subAccountApiKey: 'k', secretKey: 's' }) // { subAccountApiKey: 'k' }
 */
export function stripSecrets(raw: Record<string, unknown>): Record<string, unknown> {
  // A loop, not Object.keys: this runs for every record.
  for (const k in raw) {
    if (secretFields.has(k)) return Object.fromEntries(Object.entries(raw).filter(([f]) => !secretFields.has(f)));
  }
  return raw;
}

function asKeyText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

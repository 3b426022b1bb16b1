import { createHash } from 'node:crypto';
import { checkRecord } from '../normalize/checkRecord.js';
import type { CheckedResource } from '../normalize/recordShapes.js';
import { recordShapes } from '../normalize/recordShapes.js';
import { mapColumns } from '../load/column.js';
import type { Column } from '../load/column.js';
import type { Partition } from './streamDef.js';
import { isRecord, unreadableEntry } from '../load/unreadableEntry.js';

/**
 * One record ready to load: its values in `columnsOf` order (raw as the record object itself,
 * serialised once with its whole batch by upsertPage), its key, and its problems.
 */
export interface RecordRow {
  readonly values: unknown[];
  readonly key: string;
  readonly problems: string[];
}

/** Field names that would hold a secret; stripped from raw before storing (E8 must never keep one). */
const secretFields = new Set(['secretKey', 'secret', 'apiSecret', 'passphrase', 'password']);

/**
 * The column list a stream's rows are written with: account column, partition columns, typed
 * columns, then raw and problems.
 *
 * @example
 * columnsOf('account_uid', ['product_type'], futuresFills.columns) // ['account_uid', 'product_type', 'trade_id', ..., 'raw', 'problems']
 */
export function columnsOf(accountColumn: string | null, partitionColumns: readonly string[], columns: Readonly<Record<string, Column>>): string[] {
  return [...(accountColumn ? [accountColumn] : []), ...partitionColumns, ...Object.keys(columns), 'raw', 'problems'];
}

/**
 * Maps one raw record to a row: typed columns (NULL plus a problem when a value is unreadable),
 * the record's data-quality problems from checkRecord, and the raw record kept as received.
 * Never throws for bad data; an entry that is not an object is kept raw (`unreadableEntry`).
 *
 * @example
 * const row = recordRow('deposits', uid, partition, deposits.columns, ['order_id'], raw);
 */
export function recordRow(
  resource: string, account: string | null, partition: Partition, columns: Readonly<Record<string, Column>>,
  key: readonly string[], raw: unknown, extraProblems: readonly string[] = [],
): RecordRow {
  // A list entry that is not an object: every typed column NULL, kept raw under a stand-in key.
  const unreadable = isRecord(raw) ? undefined : unreadableEntry(raw);
  const clean = isRecord(raw) ? stripSecrets(raw) : raw;
  const { values: typed, problems } = mapColumns(columns, isRecord(clean) ? clean : {});
  const all = new Set<string>(unreadable ? [unreadable.problem, ...problems] : problems);
  for (const k of key) {
    if (unreadable && k in typed) {
      typed[k] = unreadable.standIn;
      continue;
    }
    // A record without its id is still kept: under a stable stand-in id derived from its content.
    if (k in typed && typed[k] === null) {
      typed[k] = `missing-id-${createHash('sha256').update(JSON.stringify(clean)).digest('hex').slice(0, 16)}`;
      all.add(`${columns[k]?.field ?? k}: the record has no id; stored under ${typed[k]}`);
    }
  }
  if (!unreadable && resource in recordShapes) {
    for (const p of checkRecord(resource as CheckedResource, clean)) all.add(p.message);
  }
  for (const p of extraProblems) all.add(p);
  const found = [...all];
  const values: unknown[] = account === null ? [] : [account];
  for (const k in partition.columns) values.push(partition.columns[k]);
  for (const k in typed) values.push(typed[k]);
  values.push(clean, found);
  const keyValues = key.map((k) => partition.columns[k] ?? typed[k] ?? '');
  return { values, key: keyValues.join('\u0000'), problems: found };
}

/**
 * The record without its secret-like fields (the same object when it has none).
 *
 * @example
 * stripSecrets({ subAccountApiKey: 'k', secretKey: 's' }) // { subAccountApiKey: 'k' }
 */
export function stripSecrets(raw: Record<string, unknown>): Record<string, unknown> {
  // A loop, not Object.keys: this runs for every history record.
  for (const k in raw) {
    if (secretFields.has(k)) return Object.fromEntries(Object.entries(raw).filter(([f]) => !secretFields.has(f)));
  }
  return raw;
}

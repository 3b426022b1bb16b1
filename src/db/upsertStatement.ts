import { TradeledgerError } from '../errors.js';
import type { Row, RowValue, UpsertTarget } from './upsertTarget.js';

/** The pieces both bulk paths share: column list, de-duplicated rows and the ON CONFLICT tail. */
export interface UpsertPlan {
  columns: string[];
  rows: Row[];
  /** `ON CONFLICT (...) DO UPDATE SET ... WHERE <changed>`, for target alias `t`. */
  conflict: string;
  /** Quoted table name. */
  table: string;
}

/**
 * Checks a batch and builds what both bulk paths need. Keeps the last row of each key (a later
 * copy of a record is the newer one), since one statement cannot touch a row twice.
 *
 * @example
 * const plan = upsertPlan({ table: 'deposits', key: ['account_uid', 'order_id'] }, rows);
 */
export function upsertPlan(target: UpsertTarget, rows: readonly Row[]): UpsertPlan {
  const columns = Object.keys(rows[0] ?? {});
  for (const k of target.key) {
    if (!columns.includes(k)) throw badInput(`key column "${k}" is missing from the rows for ${target.table}`, 'Give every row all the key columns.');
  }
  const byKey = new Map<string, Row>();
  for (const row of rows) {
    checkRow(row, columns, target.table);
    byKey.set(JSON.stringify(target.key.map((k) => text(row[k]))), row);
  }
  const rest = columns.filter((c) => !target.key.includes(c));
  const compare = target.compare ?? (columns.includes('raw') ? ['raw'] : rest);
  const sets = [...rest.map((c) => `${quote(c)} = EXCLUDED.${quote(c)}`), ...(target.onChange ?? [])];
  const changed = compare.length
    ? `(${compare.map((c) => `t.${quote(c)}`).join(', ')}) IS DISTINCT FROM (${compare.map((c) => `EXCLUDED.${quote(c)}`).join(', ')})`
    : 'false';
  // With nothing to set, DO NOTHING still counts a conflict as unchanged.
  const conflict = sets.length
    ? `ON CONFLICT (${target.key.map(quote).join(', ')}) DO UPDATE SET ${sets.join(', ')} WHERE ${changed}`
    : `ON CONFLICT (${target.key.map(quote).join(', ')}) DO NOTHING`;
  return { columns, rows: [...byKey.values()], conflict, table: target.table.split('.').map(quote).join('.') };
}

/** Quotes an identifier for SQL. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A row value as pg should receive it (strings, arrays, booleans, Dates or null). */
export function param(value: RowValue | undefined): unknown {
  return typeof value === 'bigint' ? value.toString() : value ?? null;
}

function text(value: RowValue | undefined): unknown {
  return value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value ?? null;
}

function checkRow(row: Row, columns: string[], table: string): void {
  const names = Object.keys(row);
  if (names.length !== columns.length || !columns.every((c) => Object.hasOwn(row, c))) {
    throw badInput(`rows for ${table} have different columns (${names.join(', ')} vs ${columns.join(', ')})`, 'Give every row of a batch the same columns; use null for a missing value.');
  }
  for (const c of columns) {
    const v = row[c] as unknown;
    if (typeof v === 'number') {
      throw badInput(`column "${c}" of ${table} got the JS number ${v}`, 'Pass numbers as strings (amounts must stay exact) or as bigint.');
    }
    if (v !== null && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v)) {
      throw badInput(`column "${c}" of ${table} got an object`, 'Pass jsonb as its JSON text, exactly as received.');
    }
  }
}

function badInput(message: string, hint: string): TradeledgerError {
  return new TradeledgerError('UPSERT_INPUT', message, { kind: 'data', hint });
}

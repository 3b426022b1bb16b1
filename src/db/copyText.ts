import type { RowValue } from './upsertTarget.js';

/**
 * One value in PostgreSQL's COPY text format: `\N` for null, backslash escapes for the
 * characters COPY treats specially, array literals for text[].
 *
 * @example
 * copyText('a\tb') // 'a\\tb'
 * copyText(['x', null]) // '{"x",NULL}'
 */
export function copyText(value: RowValue | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return escape(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  const items = value.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`));
  return escape(`{${items.join(',')}}`);
}

const special = /[\\\n\r\t]/g;
const hasSpecial = /[\\\n\r\t]/;
const replacements: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(s: string): string {
  return hasSpecial.test(s) ? s.replace(special, (c) => replacements[c]!) : s;
}

/**
 * Quotes an SQL identifier (a table or column name) for statements built as text. The one
 * quoting helper: the loaders, the status queries and the tests all go through it.
 *
 * @example
 * sqlIdentifier('spot_fills') // '"spot_fills"'
 */
export function sqlIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/**
 * Quotes a text literal for statements built as text (record field names inside generated SQL).
 *
 * @example
 * sqlLiteral("it's") // "'it''s'"
 */
export function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A list of text (or NULL) as a PostgreSQL array literal, for a parameter cast to `text[]`: exactly
 * the text node-postgres writes for a JavaScript array of strings, so the server reads the same
 * bytes. Why: pg quotes each element through two regular-expression replaces; the price candles
 * (9 arrays per answer, ~1.4M elements at 1M records) spent ~2% of the sync process's CPU there,
 * and most elements hold neither a quote nor a backslash.
 *
 * @example
 * textArrayLiteral(['a', null, 'say "hi"']) // '{"a",NULL,"say \\"hi\\""}'
 */
export function textArrayLiteral(values: readonly (string | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (v.indexOf('"') < 0 && v.indexOf('\\') < 0) out += `"${v}"`;
    else out += `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `${out}}`;
}

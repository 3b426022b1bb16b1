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

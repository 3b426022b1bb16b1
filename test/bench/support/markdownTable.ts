/**
 * A markdown table from a header and rows; numbers are right-aligned and printed with
 * thousands separators.
 *
 * @example
 * console.log(markdownTable(['budget', 'requests'], [['main/E5', 50]]));
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const cell = (v: string | number | undefined) => (typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : (v ?? ''));
  return [
    `| ${header.join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${header.map((_, i) => cell(r[i])).join(' | ')} |`),
  ].join('\n');
}

/**
 * How a message names an input: as the CLI's flag (`--year`, `--year 2025`) or as the portal
 * form's field (`year`, `2025`), so that one check speaks to both in their own words
 * (parseGainsRequest, reportPeriod).
 *
 * @example
 * const { name, example } = fieldWords(false);
 * `${name('year')} "25" ... e.g. ${example('year', '2025')}`; // 'year "25" ... e.g. 2025'
 */
export function fieldWords(cli: boolean): { name(field: string): string; example(field: string, value: string): string } {
  return {
    name: (field) => (cli ? `--${field}` : field),
    example: (field, value) => (cli ? `--${field} ${value}` : value),
  };
}

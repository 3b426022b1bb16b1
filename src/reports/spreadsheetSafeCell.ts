// A cell a spreadsheet would read as a formula starts with one of these. OWASP ASVS 5.0
// requirement 1.2.10 (https://asvs.emil.hemdal.se/1.2.10, "V1.2 Injection Prevention") lists
// '=', '+', '-', '@', tab and NUL; OWASP's CSV Injection page
// (https://owasp.org/www-community/attacks/CSV_Injection) adds carriage return. Its fix: a
// leading single quote, which spreadsheets show as text and never evaluate.
const formulaStart = /^[=+\-@\t\r\0]/;

// A plain decimal, signed or with an exponent (-1.5, +3, -1e5, 2.5E-7): spreadsheets read it as a
// number, not a formula, so it is left alone and amounts stay numbers.
const plainNumber = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Neutralises a CSV cell that a spreadsheet would run as a formula (CSV injection): text that
 * starts with `=`, `+`, `-`, `@`, a tab, a carriage return or NUL and is not a number gets a
 * leading `'`. Numbers, including negative ones and exponent forms, are returned unchanged.
 *
 * @example
 * spreadsheetSafeCell('=HYPERLINK("http://x","y")'); // '\'=HYPERLINK("http://x","y")'
 * spreadsheetSafeCell('-1.5');                       // '-1.5'
 */
export function spreadsheetSafeCell(value: string): string {
  return formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
}

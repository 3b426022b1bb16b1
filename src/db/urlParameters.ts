/**
 * A connection URL with parameters added or replaced, each given as written (already encoded),
 * and every other parameter kept in its own spelling: psql must read back the URL that
 * `tradeledger db url` prints, and URLSearchParams would respell them (a space as +, which libpq
 * reads as a plus). A parameter already in the URL is replaced where it stands; the others go at
 * the end, in the order given.
 *
 * @example
 * withParameters('postgres://db/x?options=-c%20a%3D1', { sslmode: 'require' }) // 'postgres://db/x?options=-c%20a%3D1&sslmode=require'
 * withParameters('postgres://db/x?sslmode=prefer', { sslmode: 'disable' })     // 'postgres://db/x?sslmode=disable'
 */
export function withParameters(url: string, parameters: Readonly<Record<string, string>>): string {
  const parsed = new URL(url);
  let search = parsed.search;
  for (const [name, value] of Object.entries(parameters)) {
    const at = new RegExp(`([?&])${name}=[^&]*`);
    if (at.test(search)) search = search.replace(at, `$1${name}=${value}`);
    else search = `${search === '' ? '?' : `${search}&`}${name}=${value}`;
  }
  parsed.search = search;
  return parsed.toString();
}

/**
 * Hides the password of a connection URL, so a URL can go into a message or a log line: the one
 * after the user name, and the `password` and `sslpassword` parameters libpq also reads
 * (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-PARAMKEYWORDS).
 *
 * @example
 * redactUrl('postgresql://postgres:s3cret@127.0.0.1:54329/tradeledger')
 * // 'postgresql://postgres:***@127.0.0.1:54329/tradeledger'
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    // Segment by segment, so the other parameters keep their spelling.
    parsed.search = parsed.search.replace(/([?&])((?:ssl)?password)=[^&]*/gi, '$1$2=***');
    return parsed.toString();
  } catch {
    // Not a URL we can parse: show nothing of it rather than risk a password.
    return '(unparseable database URL)';
  }
}

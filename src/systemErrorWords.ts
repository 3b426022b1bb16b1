/**
 * What a failed file or socket call means, in words, with its code kept for a search: a bare
 * "ENOENT" told a new user nothing (`import transactions nofile.csv` said "cannot read
 * nofile.csv: ENOENT").
 */
const words: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EEXIST: 'it exists already',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  EADDRINUSE: 'the address is in use (another program listens there)',
  EADDRNOTAVAIL: 'the address is not one of this machine\'s',
};

/**
 * The words for an error from Node's fs or net calls: "no such file or folder (ENOENT)"; its
 * message for a code without words, or an error without a code.
 *
 * @example
 * systemErrorWords(Object.assign(new Error('x'), { code: 'ENOENT' })); // 'no such file or folder (ENOENT)'
 */
export function systemErrorWords(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code !== undefined && words[code] !== undefined) return `${words[code]} (${code})`;
  if (code !== undefined) return code;
  return typeof e?.message === 'string' ? e.message : String(err);
}

/**
 * Replaces every occurrence of the given secrets in a text with `[REDACTED]`. Applied to every
 * message the client builds from outside text (server `msg`, socket errors), because a server or
 * a proxy may echo a header back and a secret must never reach a log.
 *
 * @example
 * redactSecrets('bad passphrase hunter2', ['hunter2']) // 'bad passphrase [REDACTED]'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    // Very short values would blank out ordinary words; real secrets are long.
    if (s.length >= 4) out = out.split(s).join('[REDACTED]');
  }
  return out;
}

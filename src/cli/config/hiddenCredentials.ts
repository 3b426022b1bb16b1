import { inspect } from 'node:util';

/**
 * Wraps an account's secrets so that JSON.stringify, console.log and util.inspect print
 * "[hidden]" instead of them: a config object logged by mistake never leaks a secret.
 *
 * @example
 * const creds = hiddenCredentials({ apiKey, secretKey, passphrase });
 * JSON.stringify(creds) // '"[hidden]"'
 */
export function hiddenCredentials(c: { apiKey: string; secretKey: string; passphrase: string }): { readonly apiKey: string; readonly secretKey: string; readonly passphrase: string } {
  const holder = {};
  for (const [k, v] of Object.entries(c)) Object.defineProperty(holder, k, { value: v, enumerable: false });
  Object.defineProperty(holder, 'toJSON', { value: () => '[hidden]', enumerable: false });
  Object.defineProperty(holder, inspect.custom, { value: () => '[hidden credentials]', enumerable: false });
  return Object.freeze(holder) as { apiKey: string; secretKey: string; passphrase: string };
}

import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { configError } from './configError.js';
import { systemErrorWords } from '../../systemErrorWords.js';

/**
 * Reads one secret from the environment variable or the file an account names (a file path is
 * relative to the config file). The value is trimmed of a trailing newline. Errors name the
 * variable or file, never the value.
 *
 * @example
 * readSecret({ env: 'MAIN_SECRET' }, process.env, 'sync.json', 'accounts[0].secret')
 */
export function readSecret(ref: { env?: string | undefined; file?: string | undefined; value?: string | undefined }, env: NodeJS.ProcessEnv, source: string, key: string): string {
  if (ref.value !== undefined) return ref.value;
  if (ref.env !== undefined && ref.file !== undefined) {
    throw configError(source, key, `both ${key}Env and ${key}File are set`, `keep one of them`);
  }
  if (ref.env !== undefined) {
    const v = env[ref.env];
    if (v === undefined || v === '') throw configError(source, `${key}Env`, `environment variable ${ref.env} is not set`, `export ${ref.env}=<the ${key}> before running, or use ${key}File`);
    return v;
  }
  if (ref.file !== undefined) {
    const path = source === 'environment' ? resolve(ref.file) : resolve(dirname(source), ref.file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw configError(source, `${key}File`, `cannot read ${path}: ${systemErrorWords(e)}`, `create the file holding only the ${key}, readable by this user (chmod 600)`);
    }
    const v = text.replace(/\r?\n$/, '');
    if (v === '') throw configError(source, `${key}File`, `${path} is empty`, `put the ${key} in the file`);
    return v;
  }
  throw configError(source, key, `no ${key} source`, `add ${key}Env (an environment variable name) or ${key}File (a file path)`);
}

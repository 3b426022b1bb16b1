import { readFileSync } from 'node:fs';
import { TradeledgerError } from '../../errors.js';
import type { SyncAccount } from '../../extract/syncOptions.js';
import { configFileSchema } from './configFileSchema.js';
import type { ConfigFile, ConfigFileSubAccount } from './configFileSchema.js';
import { configDefaults } from './syncConfig.js';
import type { SyncConfig } from './syncConfig.js';
import { configError } from './configError.js';
import { readSecret } from './readSecret.js';
import { hiddenCredentials } from './hiddenCredentials.js';
import { parseSince } from './parseSince.js';
import { checkWindowDays } from './checkWindowDays.js';
import { demoFlag } from './demoFlag.js';
import { secretProblem } from '../../api/sign.js';
import { nightlySchedule } from '../../worker/nightlySchedule.js';
import { systemErrorWords } from '../../systemErrorWords.js';

/** Command-line flags that override the file and the environment. */
export interface ConfigFlags {
  config?: string | undefined;
  /** Account names or UIDs to sync (comma-separated on the command line). */
  account?: readonly string[] | undefined;
  streams?: readonly string[] | undefined;
  since?: string | undefined;
}

/** Keys that would put a secret in the file. */
const secretKeys = /^(secret|secretKey|apiSecret|passphrase|password|apiPassphrase)$/i;

/**
 * Builds the run's configuration: defaults, then the config file (JSON, zod-validated), then
 * the environment, then the flags; the result is frozen. Without a file, one account comes from
 * TRADELEDGER_BASE_URL, TRADELEDGER_API_KEY, TRADELEDGER_API_SECRET, TRADELEDGER_API_PASSPHRASE
 * (TRADELEDGER_DEMO=1 for a demo key, TRADELEDGER_ACCOUNT_UID optional). Every error names the
 * file or variable, the key and the fix.
 *
 * @example
 * const config = loadConfig({ config: 'tradeledger.json', since: '2024-01-01' }, process.env);
 */
export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): SyncConfig {
  const file = flags.config ?? (env.TRADELEDGER_CONFIG || undefined);
  const parsed = file === undefined ? undefined : readConfigFile(file);
  const source = file ?? 'environment';
  const accounts = parsed === undefined ? [environmentAccount(env)] : fileAccounts(parsed, env, source);
  const selected = selectAccounts(accounts, flags.account, source);
  const s = parsed?.sync ?? {};
  checkWindowDays(s.windowDays ?? {}, source);
  const c = parsed?.client ?? {};
  const baseUrl = env.TRADELEDGER_BASE_URL || parsed?.baseUrl || configDefaults.baseUrl;
  const sinceText = flags.since ?? env.TRADELEDGER_SINCE ?? s.since;
  const w = parsed?.worker ?? {};
  const schedule = parsed?.schedule;
  if (schedule !== undefined) checkSchedule(schedule, source);
  const config: SyncConfig = {
    source, baseUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    accounts: selected,
    sync: {
      since: sinceText === undefined ? undefined : parseSince(sinceText, flags.since !== undefined ? '--since' : `${source}: sync.since`),
      historyDays: s.historyDays ?? configDefaults.historyDays,
      safetyLagMs: (s.safetyLagSeconds ?? configDefaults.safetyLagSeconds) * 1000,
      lookbackDays: s.lookbackDays ?? configDefaults.lookbackDays,
      horizonMarginMs: configDefaults.horizonMarginSeconds * 1000,
      concurrency: s.concurrency ?? configDefaults.concurrency,
      parallelWindows: s.parallelWindows ?? configDefaults.parallelWindows,
      symbols: s.symbols,
      streams: flags.streams ?? s.streams,
      windowDays: s.windowDays ?? {},
    },
    schedule,
    worker: {
      concurrency: w.concurrency ?? configDefaults.workerConcurrency,
      heartbeatMs: (w.heartbeatSeconds ?? configDefaults.workerHeartbeatSeconds) * 1000,
      sweepMs: (w.sweepSeconds ?? configDefaults.workerSweepSeconds) * 1000,
      staleMs: (w.staleSeconds ?? configDefaults.workerStaleSeconds) * 1000,
      stopGraceMs: (w.stopGraceSeconds ?? configDefaults.workerStopGraceSeconds) * 1000,
    },
    client: {
      safetyFactor: c.safetyFactor ?? configDefaults.safetyFactor,
      maxRetries: c.maxRetries ?? configDefaults.maxRetries,
      retryBaseMs: configDefaults.retryBaseMs,
      timeoutMs: c.timeoutMs ?? configDefaults.timeoutMs,
      rateLimit: c.rateLimit ?? true,
      maxClockSkewMs: (c.maxClockSkewSeconds ?? configDefaults.maxClockSkewSeconds) * 1000,
      ...(c.budgetAddress === undefined ? {} : { budgetAddress: c.budgetAddress }),
    },
  };
  return deepFreeze(config);
}

// The engine parses the pattern now, so a typo fails `tradeledger worker` at start, naming the key.
function checkSchedule(pattern: string, source: string): void {
  try {
    nightlySchedule(pattern);
  } catch (e) {
    throw configError(source, 'schedule', `"${pattern}" is not a cron pattern the job engine accepts: ${(e as Error).message.split('\n')[0]}`,
      'give five fields in UTC: minute hour day-of-month month day-of-week, e.g. "15 3 * * *" for 03:15 every night');
  }
}

function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new TradeledgerError('CONFIG_INVALID', `${file}: cannot read the config file: ${systemErrorWords(e)}`, {
      kind: 'config', hint: 'check the --config path', details: { source: file },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw configError(file, '(file)', `not valid JSON (${(e as Error).message})`, 'fix the JSON syntax; a validator such as `jq . FILE` shows where');
  }
  refuseSecrets(json, file, '');
  const result = configFileSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(top level)';
    throw configError(file, key, issue.message, fixFor(issue.code, key));
  }
  return result.data;
}

function refuseSecrets(value: unknown, file: string, path: string): void {
  if (Array.isArray(value)) value.forEach((v, i) => refuseSecrets(v, file, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const key = path === '' ? k : `${path}.${k}`;
      if (secretKeys.test(k)) {
        const base = /pass/i.test(k) ? 'passphrase' : 'secret';
        throw configError(file, key, 'a secret is written into the config file, which is refused', `remove it and name where it comes from instead: "${base}Env": "<VARIABLE>" or "${base}File": "<path>"`);
      }
      refuseSecrets(v, file, key);
    }
  }
}

function fixFor(code: string, key: string): string {
  if (code === 'unrecognized_keys') return `remove the unknown key, or check its spelling against the README's config reference`;
  if (code === 'invalid_type') return `give ${key} a value of the right type (see the README's config reference)`;
  return `correct ${key} (see the README's config reference)`;
}

function account(a: ConfigFileSubAccount, kind: SyncAccount['kind'], parentName: string | undefined, env: NodeJS.ProcessEnv, source: string, at: string): SyncAccount {
  const apiKey = readSecret({ value: a.apiKey, env: a.apiKeyEnv, file: a.apiKeyFile }, env, source, `${at}.apiKey`);
  const secretKey = checkedSecret(readSecret({ env: a.secretEnv, file: a.secretFile }, env, source, `${at}.secret`), source, `${at}.${a.secretFile !== undefined ? 'secretFile' : 'secretEnv'}`);
  const passphrase = readSecret({ env: a.passphraseEnv, file: a.passphraseFile }, env, source, `${at}.passphrase`);
  return { uid: a.uid, name: a.name, kind, parentName, credentials: hiddenCredentials({ apiKey, secretKey, passphrase }) };
}

function fileAccounts(file: ConfigFile, env: NodeJS.ProcessEnv, source: string): SyncAccount[] {
  const out: SyncAccount[] = [];
  file.accounts.forEach((a, i) => {
    out.push(account(a, a.demo ? 'demo' : 'main', undefined, env, source, `accounts[${i}]`));
    (a.subAccounts ?? []).forEach((s, j) => out.push(account(s, 'sub', a.name, env, source, `accounts[${i}].subAccounts[${j}]`)));
  });
  const names = new Set<string>();
  for (const [i, a] of out.entries()) {
    if (names.has(a.name)) throw configError(source, `accounts (${a.name})`, `the account name "${a.name}" is used twice`, 'give every account and sub-account its own name');
    names.add(a.name);
    void i;
  }
  // A demo key's rows are told from real ones by their account (accounts.kind = 'demo', sql/schema/views/demo_accounts.sql):
  // under a live account's UID they would mix with its real rows.
  for (const d of out.filter((a) => a.kind === 'demo' && a.uid !== undefined)) {
    const live = out.find((a) => a.kind !== 'demo' && a.uid === d.uid);
    if (live) throw configError(source, `accounts (${d.name})`, `the demo account "${d.name}" has the UID of the live account "${live.name}" (${d.uid})`, `remove "uid" from the demo account: its rows are then kept apart from the live account's, and left out of tax reports`);
  }
  return out;
}

// An RSA API key's secret is its PEM private key: refuse one that cannot sign now, with the
// place it came from, rather than at the first request.
function checkedSecret(secret: string, source: string, key: string): string {
  const problem = secretProblem(secret);
  if (problem !== undefined) {
    throw configError(source, key, problem, 'give the RSA private key exactly as saved when the RSA API key was created (PEM, "-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----"); an HMAC key\'s secret is plain text');
  }
  return secret;
}

function environmentAccount(env: NodeJS.ProcessEnv): SyncAccount {
  const need = (name: string, what: string) => {
    const v = env[name];
    if (v === undefined || v === '') {
      throw configError('environment', name, `${name} is not set and no config file was given`, `export ${name}=<your ${what}>, or pass --config FILE`);
    }
    return v;
  };
  const apiKey = need('TRADELEDGER_API_KEY', 'API key');
  const secretKey = checkedSecret(need('TRADELEDGER_API_SECRET', 'API secret'), 'environment', 'TRADELEDGER_API_SECRET');
  const passphrase = need('TRADELEDGER_API_PASSPHRASE', 'API passphrase');
  const uid = env.TRADELEDGER_ACCOUNT_UID || undefined;
  if (uid !== undefined && !/^\d+$/.test(uid)) throw configError('environment', 'TRADELEDGER_ACCOUNT_UID', 'a UID is digits only', 'set it to the account UID shown on the exchange, or unset it');
  const demo = demoFlag(env.TRADELEDGER_DEMO);
  return { uid, name: env.TRADELEDGER_ACCOUNT_NAME || (demo ? 'demo' : 'main'), kind: demo ? 'demo' : 'main', parentName: undefined, credentials: hiddenCredentials({ apiKey, secretKey, passphrase }) };
}

function selectAccounts(all: SyncAccount[], wanted: readonly string[] | undefined, source: string): SyncAccount[] {
  if (wanted === undefined || wanted.length === 0) return all;
  const unknown = wanted.filter((w) => !all.some((a) => a.name === w || a.uid === w));
  if (unknown.length > 0) {
    throw configError(source, '--account', `no account named ${unknown.map((u) => `"${u}"`).join(', ')}`, `use one of: ${all.map((a) => a.name).join(', ')}`);
  }
  return all.filter((a) => wanted.includes(a.name) || (a.uid !== undefined && wanted.includes(a.uid)));
}

function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

import { createHash } from 'node:crypto';
import { ExchangeClient } from '../api/exchangeClient.js';
import type { ClientEvent } from '../api/clientEvent.js';
import { RateBudgets } from '../api/rateBudgets.js';
import { systemClock } from '../api/rateBudget.js';
import { PgRateStore } from './pgRateStore.js';
import type { EndpointName } from '../api/endpoints.js';
import { ApiError } from '../api/apiError.js';
import { TradeledgerError } from '../errors.js';
import type { SyncAccount, SyncOptions } from './syncOptions.js';
import { asList } from './asList.js';

/** A connected account: its resolved UID and the signed call into the exchange. */
export interface AccountSession {
  readonly account: SyncAccount;
  readonly uid: string;
  readonly demo: boolean;
  readonly client: ExchangeClient;
  readonly call: (endpoint: EndpointName, params: Record<string, string>) => Promise<unknown>;
}

/**
 * Opens one client per account over one shared set of rate budgets (the per-IP ones spent in
 * the database with every other process on this address: PgRateStore), measures the clock offset,
 * and proves each key works with one cheap signed request before any stream starts. A wrong
 * key, passphrase, IP or clock fails here, as an 'auth' error naming the account and the fix.
 *
 * The account UID comes from the config; without one it is discovered from the `userId` of the
 * account's newest spot fill, and failing that a stable stand-in derived from the API key
 * (`key-<sha256 prefix>`) is used and a warning says so.
 *
 * @example
 * const sessions = await openSessions(options, (e) => log(e));
 */
export async function openSessions(o: SyncOptions, onClientEvent: (account: string, e: ClientEvent) => void): Promise<AccountSession[]> {
  const budgets = new RateBudgets(systemClock, new PgRateStore(o.rateDb ?? o.db, o.client.budgetAddress));
  const sessions: AccountSession[] = [];
  let offset: number | undefined = o.clockOffsetMs;
  try {
    for (const account of o.accounts) {
      const demo = account.kind === 'demo';
      const provisional = account.uid ?? `key-${createHash('sha256').update(account.credentials.apiKey).digest('hex').slice(0, 12)}`;
      const client = new ExchangeClient({
        baseUrl: o.baseUrl, budgetKey: provisional, budgets, credentials: { apiKey: account.credentials.apiKey, secretKey: account.credentials.secretKey, passphrase: account.credentials.passphrase, demo },
        safetyFactor: o.client.safetyFactor, maxRetries: o.client.maxRetries, retryBaseMs: o.client.retryBaseMs,
        timeoutMs: o.client.timeoutMs, rateLimit: o.client.rateLimit, ...(offset === undefined ? {} : { clockOffsetMs: offset }),
        onEvent: (e) => onClientEvent(account.name, e),
      });
      const call = (endpoint: EndpointName, params: Record<string, string>) => client.request<unknown>(endpoint, params);
      sessions.push({ account, uid: provisional, demo, client, call });
      // Measured once, by the first client; the others start from it.
      if (offset === undefined) offset = checkSkew(await client.syncClock(), o.client.maxClockSkewMs);
    }
    // Every key is proved at once (one round trip, not one per account, before the run starts);
    // a failure names the first account, in config order, whose key failed.
    const proved = await Promise.allSettled(sessions.map((s) => proveKey(s.account, s.demo, s.call)));
    proved.forEach((p, i) => {
      if (p.status === 'rejected') throw p.reason;
      const s = sessions[i] as { uid: string; account: SyncAccount };
      s.uid = s.account.uid ?? p.value ?? s.uid;
    });
    return sessions;
  } catch (e) {
    await Promise.all(sessions.map((s) => s.client.close()));
    throw e;
  }
}

/** The offset if within the tolerance; otherwise the CLOCK_SKEW error naming the fix. */
export function checkSkew(offsetMs: number, maxMs: number): number {
  if (Math.abs(offsetMs) <= maxMs) return offsetMs;
  const s = Math.round(offsetMs / 1000);
  throw new TradeledgerError('CLOCK_SKEW', `this machine's clock is ${Math.abs(s)} s ${s > 0 ? 'behind' : 'ahead of'} the exchange's (more than the ${Math.round(maxMs / 1000)} s tolerated)`, {
    kind: 'auth', hint: 'sync the system clock (NTP, e.g. `timedatectl set-ntp true`) and run again; client.maxClockSkewSeconds in the config raises the tolerance',
    details: { offsetMs },
  });
}

async function proveKey(account: SyncAccount, demo: boolean, call: AccountSession['call']): Promise<string | undefined> {
  try {
    if (demo) {
      await call('futuresAccounts', { productType: 'SUSDT-FUTURES' });
      return undefined;
    }
    const fills = asList(await call('spotFills', { limit: '1' }));
    const userId = fills[0]?.userId;
    return typeof userId === 'string' && userId !== '' ? userId : undefined;
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'auth') {
      throw new TradeledgerError(e.code, `account "${account.name}": ${e.message}`, { kind: 'auth', hint: e.hint, cause: e, details: { account: account.name } });
    }
    throw e;
  }
}

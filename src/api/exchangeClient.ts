import type { Dispatcher } from 'undici';
import { TradeledgerError } from '../errors.js';
import { backoffMs } from './backoff.js';
import type { ClientEvent } from './clientEvent.js';
import { endpoints } from './endpoints.js';
import type { EndpointDef, EndpointName } from './endpoints.js';
import { interpretResponse, toApiError } from './interpretResponse.js';
import type { Outcome, RawResponse } from './interpretResponse.js';
import type { RateBudget, RateClock } from './rateBudget.js';
import type { RateBudgets } from './rateBudgets.js';
import type { SharedRateSlot, SharedRateStore } from './sharedRateStore.js';
import { defaultRateBudgets } from './rateBudgets.js';
import type { Envelope } from './records/envelope.js';
import { requestHeaders } from './requestHeaders.js';
import type { SigningKey } from './requestHeaders.js';
import { acquirePool, releasePool } from './sharedPool.js';
import { proxyFor, shownProxy } from './proxySettings.js';
import { sleep } from './sleep.js';
import { transportFailure } from './transportFailure.js';
import { wireQuery } from './wireQuery.js';

/** An account's API key; `demo` marks a demo-trading key (requests carry `paptrading: 1`). */
export type Credentials = SigningKey;

export interface ExchangeClientOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** The account UID: every client with the same key shares its rate budgets (public endpoints share one per origin). */
  budgetKey: string;
  budgets?: RateBudgets;
  locale?: string;
  /**
   * Fraction of the spec's rate to spend (0.95 leaves 5% for timer and network jitter; `sent()` keeps
   * late requests spaced). The 1 request/s endpoints have a causal window instead of that margin
   * (see `causalRate`): the default spends their full rate, a lower factor slows them in proportion.
   */
  safetyFactor?: number;
  /** Retries after the first attempt, for idempotent requests. */
  maxRetries?: number;
  timeoutMs?: number;
  /** First back-off step in ms; it doubles per retry up to 10 s. */
  retryBaseMs?: number;
  /**
   * Requests a budget may send at once after idling, capped at one second's worth. The default,
   * 1, spaces every request evenly: a burst spends the server's slack, and a cold start (new
   * connections, a busy event loop) then bunches requests into 429s.
   */
  burst?: number;
  /**
   * The exchange's overall limit per IP (api-notes: 6000 requests/minute, about 5 minutes to
   * recover once tripped), shared by every client of the origin in this process. 0 turns it off.
   */
  ipRatePerMinute?: number;
  /** False turns the rate budgets off (benchmarks against a sandbox without limits). */
  rateLimit?: boolean;
  /** Start from a known server-minus-local offset, e.g. another client's `clockOffsetMs`. */
  clockOffsetMs?: number;
  onEvent?: (e: ClientEvent) => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Force retries on (a POST the caller knows is idempotent, e.g. by clientOid) or off. */
  retry?: boolean;
}

interface Exchange {
  envelope: Envelope<unknown>;
  sentAt: number;
  receivedAt: number;
}

/**
 * The one transport to the exchange: signs, spends the per-UID rate budget, retries what is safe
 * to retry, and decodes the envelope without losing a digit. Errors are `ApiError`s that never
 * carry a secret.
 *
 * @example
 * const client = new ExchangeClient({ baseUrl, budgetKey: uid, credentials: { apiKey, secretKey, passphrase, demo: false } });
 * await client.syncClock();
 * const page = await client.request<MarginRecord[]>('marginRecords', { marginType: 'crossed', startTime, endTime, limit: '500' });
 * await client.close();
 */
export class ExchangeClient {
  readonly #origin: string;
  readonly #pool: Dispatcher;
  /** The proxy the requests go through (password hidden), for the message of a failed connection. */
  readonly #proxyShown: string | undefined;
  readonly #creds: Credentials | undefined;
  readonly #secrets: readonly string[];
  readonly #budgetKey: string;
  readonly #budgets: RateBudgets;
  readonly #locale: string;
  readonly #safetyFactor: number;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #retryBaseMs: number;
  readonly #rateLimit: boolean;
  readonly #burst: number;
  readonly #ipRatePerMinute: number;
  readonly #onEvent: ((e: ClientEvent) => void) | undefined;
  #offsetMs: number;
  /** The clock re-measure in flight, shared by every caller that met a 40008 at once. */
  #resync: Promise<unknown> | undefined;
  #closed = false;

  constructor(o: ExchangeClientOptions) {
    this.#origin = originOf(o.baseUrl);
    this.#creds = o.credentials === undefined ? undefined : { ...o.credentials };
    const proxy = proxyFor(this.#origin);
    this.#proxyShown = proxy === undefined ? undefined : shownProxy(proxy);
    // A proxy's password is a secret too: never in a message, a log or the database.
    const proxyPassword = proxy === undefined ? '' : decodeURIComponent(new URL(proxy).password);
    this.#secrets = [...(o.credentials === undefined ? [] : [o.credentials.secretKey, o.credentials.passphrase]), ...(proxyPassword === '' ? [] : [proxyPassword])];
    this.#budgetKey = o.budgetKey;
    this.#budgets = o.budgets ?? defaultRateBudgets;
    this.#locale = o.locale ?? 'en-US';
    this.#safetyFactor = o.safetyFactor ?? defaultSafetyFactor;
    this.#maxRetries = o.maxRetries ?? 6;
    this.#timeoutMs = o.timeoutMs ?? 15_000;
    this.#retryBaseMs = o.retryBaseMs ?? 250;
    this.#rateLimit = o.rateLimit ?? true;
    this.#burst = o.burst ?? 1;
    this.#ipRatePerMinute = o.ipRatePerMinute ?? 6000;
    this.#onEvent = o.onEvent;
    this.#offsetMs = o.clockOffsetMs ?? 0;
    if (!(this.#safetyFactor > 0 && this.#safetyFactor <= 1)) {
      throw new TradeledgerError('CONFIG_INVALID', `safetyFactor must be in (0, 1], got ${this.#safetyFactor}`, { kind: 'config', hint: 'use e.g. 0.95' });
    }
    this.#pool = acquirePool(this.#origin);
  }

  /** Server clock minus local clock, in ms, as last measured by `syncClock`. */
  get clockOffsetMs(): number {
    return this.#offsetMs;
  }

  /** The exchange's current time by our best estimate (Unix ms). */
  serverNow(): number {
    return Date.now() + this.#offsetMs;
  }

  /**
   * Calls one endpoint and returns the envelope's `data`, typed by the caller. GET params go in
   * the sorted query; a POST sends `body` as JSON. Idempotent GETs are retried on network errors,
   * timeouts, 5xx, 429, malformed bodies and deploy-window codes; POSTs only after a 429 or a
   * 40008, which the exchange refuses before acting, unless `opts.retry` says otherwise.
   *
   * @example
   * const fills = await client.request<SpotFill[]>('spotFills', { symbol: 'BTCUSDT', limit: '100' });
   */
  async request<T>(name: EndpointName, params: Record<string, string | undefined> = {}, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.#call(name, params, body, opts)).envelope.data as T;
  }

  /**
   * Measures the offset to the server's clock from the `requestTime` of a cheap public request
   * (one symbol's info), corrected by half the round trip, keeping the sample with the shortest
   * round trip. Later signatures use the corrected time. Returns the offset in ms.
   *
   * @example
   * const offsetMs = await client.syncClock();
   */
  async syncClock(opts: { signal?: AbortSignal; samples?: number } = {}): Promise<number> {
    let best: { rtt: number; offset: number } | undefined;
    for (let i = 0; i < (opts.samples ?? 3); i++) {
      const x = await this.#call('publicSymbols', { symbol: 'BTCUSDT' }, undefined, opts.signal === undefined ? {} : { signal: opts.signal });
      const serverTime = Number(x.envelope.requestTime);
      if (!Number.isFinite(serverTime)) continue;
      const rtt = x.receivedAt - x.sentAt;
      const offset = serverTime - (x.sentAt + rtt / 2);
      if (best === undefined || rtt < best.rtt) best = { rtt, offset };
    }
    if (best === undefined) {
      throw new TradeledgerError('API_NO_SERVER_TIME', 'publicSymbols answered without a requestTime, so the clock offset is unknown', { kind: 'exchange', retryable: true, hint: 'run again; if it persists, report it' });
    }
    this.#offsetMs = Math.round(best.offset);
    return this.#offsetMs;
  }

  /** Releases the connection pool (shared with other clients of the same origin). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await releasePool(this.#origin);
  }

  async #call(name: EndpointName, params: Record<string, string | undefined>, body: unknown, opts: RequestOptions): Promise<Exchange> {
    const def: EndpointDef = endpoints[name];
    this.#check(name, def, params);
    // Public endpoints are limited per IP, not per UID: all accounts share their budget.
    const budgetKey = def.signed ? this.#budgetKey : `public@${this.#origin}`;
    // A limit with no burst room (1 request/s) gets a causal window: spaced from the last answer.
    const window = def.ratePerSecond < causalBelowRate ? { count: Math.max(1, Math.floor(def.ratePerSecond)), windowMs: 1000 } : undefined;
    const rate = window === undefined ? def.ratePerSecond * this.#safetyFactor : causalRate(def.ratePerSecond, this.#safetyFactor);
    const budget = this.#rateLimit ? this.#budgets.get(budgetKey, name, rate, this.#burst, window) : undefined;
    const ipRate = (this.#ipRatePerMinute / 60) * this.#safetyFactor;
    const ipBudget = this.#rateLimit && this.#ipRatePerMinute > 0
      ? this.#budgets.get(`ip@${this.#origin}`, 'all endpoints', ipRate, this.#burst)
      : undefined;
    // What other processes on this address spend too: the per-IP limit, and a public endpoint's.
    const shared = this.#rateLimit ? this.#budgets.shared : undefined;
    const sharedSlots: SharedRateSlot[] = [];
    if (shared !== undefined && budget !== undefined) {
      // The requests of the budgets that set a run's length may go ahead of the per-address
      // queue: the 1 request/s endpoints' and the public ones' (priorityIpBurst).
      const ahead = window !== undefined || !def.signed;
      if (ipBudget !== undefined) sharedSlots.push({ key: `ip@${this.#origin}`, intervalMs: 1000 / ipRate, burst: ahead ? priorityIpBurst : ipBudget.burst });
      if (!def.signed) sharedSlots.push({ key: `${budgetKey}|${name}`, intervalMs: budget.intervalMs, burst: budget.burst });
    }
    const idempotent = opts.retry ?? def.method === 'GET';
    const started = Date.now();
    let clockRetried = false;
    for (let attempt = 1; ; attempt++) {
      let outcome: Outcome;
      let sentAt: number;
      let budgetSentAt: number | undefined;
      let granted = false;
      try {
        if (budget !== undefined) {
          // A causal-window budget's request takes its per-address slot while it waits for its
          // window (RateBudget.acquire's `prepare`: once it is next and the request before it
          // was answered): the reservation's round trip to the database is then off the path of
          // the endpoints that set a run's length. Sent at most about a second after its slot,
          // it stays inside the per-minute limit's headroom (priorityIpBurst).
          const spend = () => this.#spendAddressBudget(shared, sharedSlots, ipBudget, opts.signal);
          let waited = await budget.acquire(opts.signal, window === undefined ? undefined : spend);
          granted = true;
          if (window === undefined) waited += await spend();
          if (waited >= 1) this.#emit({ type: 'rate-wait', endpoint: name, endpointId: def.id, ms: waited, attempt });
        }
        sentAt = Date.now();
        // On the budget's clock (the real one outside tests), for a 429's pause below.
        budgetSentAt = budget?.sent();
        outcome = await this.#send(name, def, params, body, opts.signal);
      } finally {
        // After the answer (or a failure): a causal-window budget spaces the next request from here.
        if (granted) budget?.settled();
      }
      const receivedAt = Date.now();
      if (!('failure' in outcome)) {
        budget?.succeeded();
        this.#emit({ type: 'request', endpoint: name, endpointId: def.id, ms: receivedAt - sentAt, attempt, httpStatus: outcome.status });
        return { envelope: outcome.envelope, sentAt, receivedAt };
      }
      const f = outcome.failure;
      const event = { endpoint: name, endpointId: def.id, attempt, httpStatus: f.httpStatus, exchangeCode: f.exchangeCode, message: f.message };
      let delay = backoffMs(attempt, this.#retryBaseMs, 10_000);
      if (f.exchangeCode === '429') {
        if (budget !== undefined) {
          // The paused budget does the waiting, for this caller and every other one (and, for a
          // public endpoint, every process on this address: the shared row pauses too).
          const pausedMs = budget.pause(f.retryAfterMs, budgetSentAt);
          if (shared !== undefined && !def.signed && pausedMs > 0) await shared.pause(`${budgetKey}|${name}`, pausedMs).catch(() => undefined);
          this.#emit({ ...event, type: 'rate-limited', ms: pausedMs });
          delay = 0;
        } else if (f.retryAfterMs !== undefined) {
          delay = f.retryAfterMs;
        }
      }
      if (f.exchangeCode === '40008' && def.signed && !clockRetried && opts.retry !== false) {
        clockRetried = true;
        this.#emit({ ...event, type: 'retry', ms: 0 });
        this.#resync ??= this.syncClock().catch(() => undefined).finally(() => (this.#resync = undefined));
        await this.#resync;
        continue;
      }
      const mayRetry = opts.retry !== false && f.retryable && attempt <= this.#maxRetries && (idempotent || f.exchangeCode === '429');
      if (!mayRetry) {
        this.#emit({ ...event, type: 'error', ms: Date.now() - started });
        throw toApiError(f, name, def.id, attempt);
      }
      this.#emit({ ...event, type: 'retry', ms: Math.round(delay) });
      await sleep(delay, opts.signal);
    }
  }

  /**
   * Waits for the per-address budgets: one reservation in the shared store when there is one,
   * else this process's own per-IP budget. A store that cannot answer (the database restarting)
   * falls back to the process's own budget rather than failing the request. Returns ms waited.
   */
  async #spendAddressBudget(shared: SharedRateStore | undefined, slots: readonly SharedRateSlot[], ipBudget: RateBudget | undefined, signal: AbortSignal | undefined): Promise<number> {
    if (shared !== undefined && slots.length > 0) {
      let waitMs: number | undefined;
      try {
        waitMs = await shared.reserve(slots, signal);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
      }
      if (waitMs !== undefined) {
        if (waitMs > 0) await clockSleep(this.#budgets.clock, waitMs, signal);
        return waitMs;
      }
    }
    return (await ipBudget?.acquire(signal)) ?? 0;
  }

  async #send(name: EndpointName, def: EndpointDef, params: Record<string, string | undefined>, body: unknown, callerSignal: AbortSignal | undefined): Promise<Outcome> {
    const query = def.method === 'GET' ? wireQuery(params) : { signed: '', wire: '' };
    const bodyText = def.method === 'POST' ? JSON.stringify(body ?? {}) : '';
    const headers = requestHeaders(def, query.signed, bodyText, { locale: this.#locale, key: this.#creds, timestampMs: Date.now() + this.#offsetMs });
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let raw: RawResponse;
    try {
      const res = await this.#pool.request({
        origin: this.#origin, path: def.path + (query.wire === '' ? '' : `?${query.wire}`), method: def.method, headers,
        body: bodyText === '' ? null : bodyText, signal, headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs,
      });
      raw = { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    } catch (e) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const failure = transportFailure(name, def, e, { timedOut: timeout.aborted, timeoutMs: this.#timeoutMs, origin: this.#origin, secrets: this.#secrets, ...(this.#proxyShown === undefined ? {} : { proxy: this.#proxyShown }) });
      return { ok: false, failure };
    }
    return interpretResponse(name, def, raw, this.#secrets);
  }

  #check(name: EndpointName, def: EndpointDef, params: Record<string, string | undefined>): void {
    if (this.#closed) throw new TradeledgerError('CLIENT_CLOSED', `${name}: the exchange client was already closed`, { kind: 'internal' });
    if (def.signed && this.#creds === undefined) {
      throw new TradeledgerError('CONFIG_INVALID', `${name} (${def.id}) needs API credentials, and this account has none`, {
        kind: 'config', hint: 'set TRADELEDGER_API_KEY, TRADELEDGER_API_SECRET and TRADELEDGER_API_PASSPHRASE (or the account\'s entries in the config file)',
      });
    }
    if (def.method === 'POST' && Object.values(params).some((v) => v !== undefined)) {
      throw new TradeledgerError('INTERNAL', `${name} is a POST: pass its fields in the body, not as query params`, { kind: 'internal' });
    }
  }

  #emit(e: ClientEvent): void {
    if (this.#onEvent === undefined) return;
    try {
      this.#onEvent(e);
    } catch {
      // A broken progress display must not fail a sync.
    }
  }
}

/** Endpoints limited below this many requests/s have no burst room and get a causal window. */
const causalBelowRate = 2;

/**
 * How far a request may go ahead of the others in the per-address (6,000 requests/minute)
 * schedule, in requests, when its budget sets a run's length: the 1 request/s endpoints (E5: 50
 * requests per UID in a first sync) and the public ones, whose per-address budget every account
 * shares (the candles: 20 requests/s for ~800 requests). In a first sync's first half the fast
 * streams fill the per-address budget, and each of those requests waited behind their queue: E5
 * 2 s per UID, and the candles ran at 15 instead of 19 requests/s. A reservation with this burst
 * still advances the shared schedule by one interval, so the requests queued behind it wait for
 * it: at any moment at most this many requests are ahead of the paced schedule, i.e. at most
 * 95% of 6,000 plus 100 in any minute, inside the limit's 300 of headroom.
 */
export const priorityIpBurst = 100;

/** The fraction of each limit spent when the config names none (`client.safetyFactor`). */
export const defaultSafetyFactor = 0.95;

/**
 * The pace of a causal-window budget (the 1 request/s endpoints). Their window already spaces
 * each request a full second plus a margin from the previous answer, which no timer or network
 * jitter can undo: the 5% the default safety factor leaves for that jitter would only slow the
 * endpoints that set a first sync's length (E5 at 50 requests per UID: 52.6 s instead of 50).
 * So the default factor spends their full rate; a factor set below it (an exchange that lowered
 * a limit, docs/operations.md) slows them in the same proportion.
 *
 * @example
 * causalRate(1, 0.95); // 1
 * causalRate(1, 0.5);  // 0.526...
 */
export function causalRate(ratePerSecond: number, safetyFactor: number): number {
  return ratePerSecond * Math.min(1, safetyFactor / defaultSafetyFactor);
}

function clockSleep(clock: RateClock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TradeledgerError('CONFIG_INVALID', `base URL "${baseUrl}" is not a URL`, { kind: 'config', hint: 'use a URL such as https://api.example.com or http://127.0.0.1:8080' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== '')) {
    throw new TradeledgerError('CONFIG_INVALID', `base URL "${baseUrl}" must be a plain http(s) origin without a path`, { kind: 'config', hint: 'use a URL such as https://api.example.com (the client adds /api/v2/...)' });
  }
  return url.origin;
}

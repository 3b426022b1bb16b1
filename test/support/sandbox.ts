import { inspect } from 'node:util';
import type { ClientEvent } from '../../src/api/clientEvent.js';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import type { ExchangeClientOptions } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/startSandbox.js';
import type { AccountLine } from '../../src/sandbox/server/describeAccounts.js';

/**
 * Starts a sandbox in-process on a free port for a test file: tiny data, seed 1, rate limits
 * off unless asked for. Stop it with `await sandbox.close()` in afterAll.
 *
 * @example
 * let sandbox: RunningSandbox;
 * beforeAll(async () => { sandbox = await startTestSandbox(); });
 * afterAll(() => sandbox.close());
 */
export function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, seed: 1, scale: 'tiny', rateLimit: false, ...options });
}

/**
 * The first key line that matches, or a clear failure naming what was looked for.
 *
 * @example
 * const main = keyWhere(sandbox, (a) => a.main && a.broker && a.perms.includes('spot_trade'));
 */
export function keyWhere(sandbox: RunningSandbox, match: (a: AccountLine) => boolean, what = 'a matching key'): AccountLine {
  const found = sandbox.accounts.find(match);
  if (!found) throw new Error(`the sandbox has no ${what}; accounts: ${sandbox.accounts.map((a) => `${a.name}[${a.perms.join('|')}]`).join(', ')}`);
  return found;
}

/** The three keys most sandbox tests need: the full broker main key, the demo key, a sub-account key. */
export function standardKeys(sandbox: RunningSandbox): { main: AccountLine; demo: AccountLine; sub: AccountLine } {
  return {
    main: keyWhere(sandbox, (a) => a.main && a.broker && a.perms.length === 4, 'full broker main key'),
    demo: { ...keyWhere(sandbox, (a) => a.demo, 'demo key'), demo: true },
    sub: keyWhere(sandbox, (a) => !a.main, 'sub-account key'),
  };
}

/** POSTs to a /_sandbox/ control (GETs it when there is no body) and returns its JSON. */
export async function control(sandbox: RunningSandbox, name: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sandbox.baseUrl}/_sandbox/${name}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`/_sandbox/${name} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export type { RunningSandbox };

type Account = RunningSandbox['accounts'][number];

/**
 * A real sandbox over HTTP plus helpers to build clients for its accounts, drive its test
 * controls, and collect every event and error a test produced (to search them for secrets).
 */
export class ApiSandbox {
  readonly events: ClientEvent[] = [];
  readonly errors: unknown[] = [];
  readonly budgets = new RateBudgets();
  readonly #clients: ExchangeClient[] = [];

  private constructor(readonly sandbox: RunningSandbox) {}

  /** Seed 7 and, unlike startTestSandbox's default, the sandbox's rate limits on: the client tests need its 429s. */
  static async start(options: SandboxOptions = {}): Promise<ApiSandbox> {
    return new ApiSandbox(await startTestSandbox({ seed: 7, rateLimit: true, ...options }));
  }

  get baseUrl(): string {
    return this.sandbox.baseUrl;
  }

  /** The first key of the account with this name ('main', 'demo', 'copy-trader') or label match. */
  account(pick: (a: Account) => boolean = (a) => a.name === 'main' && a.perms.includes('spot_trade') && a.apiKey !== ''): Account {
    const a = this.sandbox.accounts.find(pick);
    if (a === undefined) throw new Error('no such sandbox account');
    return a;
  }

  client(account: Account, extra: Partial<ExchangeClientOptions> = {}): ExchangeClient {
    const c = new ExchangeClient({
      baseUrl: this.baseUrl, budgetKey: account.uid, budgets: this.budgets, retryBaseMs: 20,
      credentials: { apiKey: account.apiKey, secretKey: account.secretKey, passphrase: account.passphrase, demo: account.demo },
      onEvent: (e) => this.events.push(e), ...extra,
    });
    this.#clients.push(c);
    return c;
  }

  /** Runs `fn`, remembering what it threw (for the secret search) before rethrowing. */
  async capture<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      this.errors.push(e);
      throw e;
    }
  }

  async control(path: string, body?: unknown): Promise<Record<string, unknown>> {
    return (await control(this.sandbox, path, body)) as Record<string, unknown>;
  }

  /** 429s the sandbox answered for one endpoint id and UID, from GET /_sandbox/stats. */
  async rateLimited(endpointId: string, uid: string): Promise<number> {
    const stats = (await this.control('stats')) as { rateLimited: Record<string, Record<string, number>> };
    return stats.rateLimited[endpointId]?.[uid] ?? 0;
  }

  async requests(endpointId: string, uid: string): Promise<number> {
    const stats = (await this.control('stats')) as { requests: Record<string, Record<string, number>> };
    return stats.requests[endpointId]?.[uid] ?? 0;
  }

  /** Everything a log or error report could show: events, messages, hints, causes, stacks. */
  everythingPrinted(): string {
    const errors = this.errors.map((e) => {
      const parts: unknown[] = [inspect(e, { depth: 10 }), JSON.stringify(e)];
      for (let c: unknown = e; c instanceof Error; c = c.cause) parts.push(c.message, c.stack, (c as { hint?: unknown }).hint);
      return parts.join('\n');
    });
    return [JSON.stringify(this.events), ...errors, ...this.#clients.map((c) => inspect(c, { depth: 10, showHidden: true }))].join('\n');
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    await this.sandbox.close();
  }
}

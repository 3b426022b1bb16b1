import { inspect } from 'node:util';
import type { ClientEvent } from '../../src/api/clientEvent.js';
import { ExchangeClient } from '../../src/api/exchangeClient.js';
import type { ExchangeClientOptions } from '../../src/api/exchangeClient.js';
import { RateBudgets } from '../../src/api/rateBudgets.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/startSandbox.js';

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

  static async start(options: SandboxOptions = {}): Promise<ApiSandbox> {
    return new ApiSandbox(await startSandbox({ seed: 7, scale: 'tiny', ...options }));
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
    const res = await fetch(`${this.baseUrl}/_sandbox/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`sandbox control ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
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

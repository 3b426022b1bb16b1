/** @jsxImportSource hono/jsx */
import { timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type pg from 'pg';
import { TradeledgerError } from '../../errors.js';
import type { accountHealthCache } from '../accountHealth.js';
import { logAccessDenied, visibleAccounts } from '../accountAccess.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { downloadSlots } from '../downloadSlots.js';
import type { PortalLog } from '../portalLog.js';
import { publicOrigin } from '../requestContext.js';
import { parameterProblem } from '../requestParameters.js';
import type { SessionPolicy } from '../sessionPolicy.js';
import type { PortalSession } from '../sessionStore.js';
import { ErrorPage } from '../views/layout.js';

/** What every portal route sees: Node's bindings, and once signed in the session and its CSRF token. */
export type Env = { Bindings: HttpBindings; Variables: { session: PortalSession; token: string; csrf: string; address: string } };

/** The portal app itself, to which each route module adds its routes. */
export type PortalHono = Hono<Env>;

/** What the route modules share, made once by portalApp. */
export interface PortalDeps {
  pool: pg.Pool;
  /** Downloads open their own connections (reportDownload.ts, gainsDownload.ts). */
  databaseUrl: string;
  policy: SessionPolicy;
  now: () => number;
  trustProxy: boolean | number;
  log: PortalLog;
  reportsDir: string;
  previewRows: number;
  health: ReturnType<typeof accountHealthCache>;
  slots: ReturnType<typeof downloadSlots>;
  scratchDir: string | undefined;
}

export const sessionCookie = 'tl_session';
export const loginCookie = 'tl_login';

/** The portal's cookies: HTTP-only, same-site strict, Secure behind TLS. */
export const cookieOptions = (c: Context, trustProxy: boolean | number) => ({ httpOnly: true, sameSite: 'Strict' as const, secure: publicOrigin(c, trustProxy).secure, path: '/' });

/** Compares a sent token with the expected one in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An error page for the signed-in user (or the sign-in page's visitor), with the status. */
export function errorPage(c: Context<Env>, status: 400 | 403 | 404 | 405 | 503, message: string, hint?: string) {
  const session = c.get('session') as PortalSession | undefined;
  return c.html(<ErrorPage status={status} message={message} hint={hint} user={session?.user} csrf={c.get('csrf')} />, status);
}

/** The portal's one 400 page: a refused request or a form the report runner cannot take. */
export function badRequest(c: Context<Env>, message: string, hint?: string) {
  return errorPage(c, 400, message, hint);
}

/**
 * A config error (a period, format or fiat the runner refuses) as the 400 page; anything else is
 * rethrown for app.onError.
 */
export function configErrorPage(c: Context<Env>, err: unknown) {
  if (err instanceof TradeledgerError && err.kind === 'config') return badRequest(c, err.message, err.hint);
  throw err;
}

/** A GET's fields are its query; a POST's its form body (the CSRF token aside). */
export async function fields(c: Context<Env>): Promise<Record<string, string>> {
  if (c.req.method === 'GET') return c.req.query();
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '_csrf'));
}

/** The checks every route runs: its parameters, and the account it names against the user's grants. */
export interface Guards {
  /**
   * Refuses a request whose parameters are not the route's (requestParameters.ts): 400, kept in
   * portal_access_denied with the reason, like a refused account.
   */
  only(allowed: readonly string[]): MiddlewareHandler<Env>;
  /** Refuses an account (403: every account, for a non-admin; 404: not one of the user's), recorded. */
  deny(c: Context<Env>, status: 403 | 404, account: string | undefined, message: string): Promise<Response>;
  /** Checks an account named by a URL or form against the user's own list, on the server. */
  allowedAccount(c: Context<Env>, account: string, known?: VisibleAccount[]): Promise<{ accounts: VisibleAccount[]; refused?: Response }>;
}

/**
 * The guards over the portal's pool, clock and log.
 *
 * @example
 * const { only, allowedAccount } = guards(deps);
 * app.get('/charts', only(chartFields), async (c) => { const { refused } = await allowedAccount(c, account); ... });
 */
export function guards(deps: PortalDeps): Guards {
  const { pool, now, log } = deps;
  const deny: Guards['deny'] = async (c, status, account, message) => {
    const session = c.get('session');
    await logAccessDenied(pool, { nowMs: now(), user: session?.user, address: c.get('address'), method: c.req.method, path: c.req.path, account, status }, log);
    return errorPage(c, status, message);
  };
  return {
    only: (allowed) => async (c, next) => {
      const problem = await parameterProblem(c, allowed);
      if (problem === undefined) return next();
      const session = c.get('session') as PortalSession | undefined;
      const named = c.req.method === 'GET' ? c.req.query('account') : (await c.req.parseBody()).account;
      await logAccessDenied(pool, {
        nowMs: now(), user: session?.user, address: c.get('address'), method: c.req.method, path: c.req.path,
        account: typeof named === 'string' ? named : undefined, status: 400, reason: problem,
      }, log);
      if (c.req.path === '/charts/data') return c.json({ error: `refused: ${problem}` }, 400);
      return badRequest(c, `This request was refused: ${problem}.`, "Use the portal's own forms and links; a changed address or form is refused.");
    },
    deny,
    allowedAccount: async (c, account, known) => {
      const user = c.get('session').user;
      const accounts = known ?? await visibleAccounts(pool, user);
      if (account === '' && user.role !== 'admin') {
        return { accounts, refused: await deny(c, 403, '', 'Reports over every account are for administrators. Choose one of your accounts.') };
      }
      if (account !== '' && !accounts.some((a) => a.uid === account)) {
        return { accounts, refused: await deny(c, 404, account, 'There is no such account among the accounts you may see.') };
      }
      return { accounts };
    },
  };
}

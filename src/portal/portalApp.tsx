/** @jsxImportSource hono/jsx */
import { bodyLimit } from 'hono/body-limit';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { createPool } from '../db/pools.js';
import { TradeledgerError } from '../errors.js';
import { defaultReportsDir } from '../reports/runReports.js';
import { accountHealthCache } from './accountHealth.js';
import { defaultDownloadSlots, downloadSlots } from './downloadSlots.js';
import type { DownloadSlotLimits } from './downloadSlots.js';
import { portalLog } from './portalLog.js';
import type { PortalUser } from './portalUser.js';
import { clientAddress } from './requestContext.js';
import { securityHeaders } from './securityHeaders.js';
import { defaultSessionPolicy } from './sessionPolicy.js';
import type { SessionPolicy } from './sessionPolicy.js';
import { loadStaticAssets } from './staticAssets.js';
import { ErrorPage } from './views/layout.js';
import { accountRoutes } from './routes/accounts.js';
import { chartRoutes } from './routes/charts.js';
import { correctionRoutes } from './routes/corrections.js';
import { downloads } from './routes/downloads.js';
import { gainsRoutes } from './routes/gains.js';
import { loginRoutes, sessionGate } from './routes/login.js';
import { reportRoutes } from './routes/reports.js';
import { sessionRoutes } from './routes/sessions.js';
import { guards } from './routes/shared.js';
import type { Env, PortalDeps } from './routes/shared.js';

export { downloadRetryAfterSeconds } from './routes/downloads.js';

/** Options for {@link portalApp}. */
export interface PortalOptions {
  databaseUrl: string;
  /** Session lifetimes and login limits; defaults in sessionPolicy.ts. */
  policy?: Partial<SessionPolicy>;
  /** The clock for sessions and rate limits (tests move it forward); default Date.now. */
  now?: () => number;
  /** Reverse proxies in front (true = 1): whose X-Forwarded-Proto/-For/-Host are believed (Secure cookies, real addresses). */
  trustProxy?: boolean | number;
  /** One JSON line per notable event (refused requests, errors); default stderr. */
  log?: (line: string) => void;
  reportsDir?: string;
  /** Rows shown by the report preview; default 20. */
  previewRows?: number;
  /** Downloads running at once and waiting for a slot (downloadSlots.ts); default 4 and 16. */
  downloads?: Partial<DownloadSlotLimits>;
  /** Where downloads write their private temporary folders; default the system's (TMPDIR). */
  scratchDir?: string;
}

/**
 * The portal as a Hono app over one PostgreSQL database: login, accounts, corrections, reports
 * (preview and downloads), gains downloads, charts and sessions, each in its module under
 * `routes/`. Every route that names an account checks it server-side against the user's grants
 * (`routes/shared.tsx`); every log line goes through `portalLog.ts`; an error no route handles
 * is the one `onError` below. Call `close()` to end its database pool.
 *
 * @example
 * const { app, close } = await portalApp({ databaseUrl: url });
 * serve({ fetch: app.fetch, port: 8080, hostname: '127.0.0.1' });
 */
export async function portalApp(options: PortalOptions): Promise<{ app: Hono<Env>; close(): Promise<void> }> {
  const policy: SessionPolicy = { ...defaultSessionPolicy, ...options.policy };
  const now = options.now ?? Date.now;
  const trustProxy = options.trustProxy ?? false;
  const log = portalLog(options.log ?? ((line: string) => process.stderr.write(`${line}\n`)), now);
  const reportsDir = options.reportsDir ?? defaultReportsDir;
  const previewRows = options.previewRows ?? 20;
  const pool = createPool({ url: options.databaseUrl, name: 'portal', max: 10 });
  const health = accountHealthCache(pool);
  health.read().catch(() => {}); // warm the cache before the first page view
  const assets = await loadStaticAssets();
  const app = new Hono<Env>();
  const maxBodyBytes = 64 * 1024;
  const slots = downloadSlots({ ...defaultDownloadSlots, ...options.downloads });
  const deps: PortalDeps = {
    pool, databaseUrl: options.databaseUrl, policy, now, trustProxy, log, reportsDir, previewRows, health, slots, scratchDir: options.scratchDir,
  };
  const checks = guards(deps);

  app.use('*', securityHeaders());
  app.use('*', async (c, next) => {
    c.set('address', clientAddress(c, trustProxy));
    await next();
  });
  // Every form the portal serves is a few hundred bytes. A larger body is refused from its
  // Content-Length (or as it streams past the limit) before anything parses it: a 300 MB POST to
  // /login, before sign-in, took the process to 1.57 GB and stalled every other request.
  app.use('*', bodyLimit({
    maxSize: maxBodyBytes,
    onError: (c) => {
      log('portal-body-too-large', { path: c.req.path, address: c.get('address') });
      return c.text(`request body too large (the limit is ${maxBodyBytes / 1024} KiB)`, 413);
    },
  }));

  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'));
    if (!asset) return c.text('not found', 404);
    return c.body(new Uint8Array(asset.body), 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
  });
  app.get('/favicon.ico', (c) => c.body(null, 204));

  loginRoutes(app, deps, checks);
  // Everything below needs a live session; state-changing requests also need the CSRF token.
  app.use('*', sessionGate(deps));
  const sending = downloads(deps);
  accountRoutes(app, deps, checks);
  sessionRoutes(app, deps, checks);
  correctionRoutes(app, deps, checks);
  reportRoutes(app, deps, checks, sending);
  gainsRoutes(app, deps, checks, sending);
  chartRoutes(app, deps, checks);

  app.notFound((c) => c.html(<ErrorPage status={404} message="There is no such page." />, 404));
  // The one handler of errors no route answered itself: logged, and a 500 page that names only a config error.
  app.onError((err, c) => {
    log('portal-error', { path: c.req.path, error: err instanceof Error ? err.message : String(err) });
    const user = (c as Context<Env>).get('session')?.user as PortalUser | undefined;
    const message = err instanceof TradeledgerError && err.kind === 'config' ? err.message : 'Something went wrong on the server. The error is in the server log.';
    return c.html(<ErrorPage status={500} message={message} user={user} />, 500);
  });

  return { app, close: () => pool.end() };
}

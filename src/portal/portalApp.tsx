/** @jsxImportSource hono/jsx */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Transform, pipeline } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { bodyLimit } from 'hono/body-limit';
import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createPool } from '../db/pools.js';
import { TradeledgerError } from '../errors.js';
import { defaultReportsDir } from '../reports/runReports.js';
import { reportFormats } from '../reports/reportFormats.js';
import type { ReportFormat } from '../reports/reportFormats.js';
import { reportPeriod } from '../reports/reportPeriod.js';
import { accountHealthCache, healthOf } from './accountHealth.js';
import { logAccessDenied, visibleAccounts } from './accountAccess.js';
import type { VisibleAccount } from './accountAccess.js';
import { auditDownload } from './auditDownload.js';
import type { DownloadSubject } from './auditDownload.js';
import { gainsLabel, gainsPeriod, gainsRequest, prepareGainsFile, prepareGainsZip } from './gainsDownload.js';
import type { GainsRequest } from './gainsDownload.js';
import { chartData } from './chartData.js';
import { claimLoginAttempt, loginSucceeded, pruneLoginFailures } from './loginThrottle.js';
import { dummyPasswordHash, verifyPassword } from './passwordHash.js';
import type { PortalUser } from './portalUser.js';
import { prepareCsv, prepareZip } from './reportDownload.js';
import type { DownloadRun, PreparedDownload } from './reportDownload.js';
import { defaultDownloadSlots, downloadSlots } from './downloadSlots.js';
import type { DownloadSlotLimits } from './downloadSlots.js';
import { chartFields, gainsFields, parameterProblem, reportFields } from './requestParameters.js';
import { reportPreview } from './reportPreview.js';
import { checkboxOn, reportRequest } from './reportRequest.js';
import type { ReportRequest } from './reportRequest.js';
import { clientAddress, publicOrigin, sameOrigin } from './requestContext.js';
import { securityHeaders } from './securityHeaders.js';
import { defaultSessionPolicy } from './sessionPolicy.js';
import type { SessionPolicy } from './sessionPolicy.js';
import { findSession, listSessions, openSession, revokeSession } from './sessionStore.js';
import type { PortalSession } from './sessionStore.js';
import { csrfToken } from './sessionToken.js';
import { loadStaticAssets } from './staticAssets.js';
import { AccountsPage } from './views/accountsPage.js';
import { AccountPage } from './views/accountPage.js';
import { rankedWarnings } from './accountWarnings.js';
import { readReconciliation } from '../reports/reconcile.js';
import { ChartsPage } from './views/chartsPage.js';
import { ErrorPage } from './views/layout.js';
import { LoginPage } from './views/loginPage.js';
import { PreviewPanel, ReportsPage } from './views/reportsPage.js';
import type { PreviewState, ReportFormValues } from './views/reportsPage.js';
import { SessionsPage } from './views/sessionsPage.js';
import { CorrectionsPage } from './views/correctionsPage.js';
import { correctableRows, listCorrections, setCorrection, undoCorrection } from '../corrections/ledgerCorrections.js';

/** Options for {@link portalApp}. */
export interface PortalOptions {
  databaseUrl: string;
  /** Session lifetimes and login limits; defaults in sessionPolicy.ts. */
  policy?: Partial<SessionPolicy>;
  /** The clock for sessions and rate limits (tests move it forward); default Date.now. */
  now?: () => number;
  /** Behind a TLS reverse proxy: believe X-Forwarded-Proto/-For/-Host (Secure cookies, real addresses). */
  /** Reverse proxies in front (true = 1): whose X-Forwarded-* headers are believed. */
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

/** What a download refused for a full queue asks the browser to wait, in seconds. */
export const downloadRetryAfterSeconds = 15;

type Env = { Bindings: HttpBindings; Variables: { session: PortalSession; token: string; csrf: string; address: string } };

const sessionCookie = 'tl_session';
const loginCookie = 'tl_login';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The portal as a Hono app over one PostgreSQL database: login, accounts, reports (preview and
 * downloads), charts and sessions. Every route that names an account checks it server-side
 * against the user's grants. Call `close()` to end its database pool.
 *
 * @example
 * const { app, close } = await portalApp({ databaseUrl: url });
 * serve({ fetch: app.fetch, port: 8080, hostname: '127.0.0.1' });
 */
export async function portalApp(options: PortalOptions): Promise<{ app: Hono<Env>; close(): Promise<void> }> {
  const policy: SessionPolicy = { ...defaultSessionPolicy, ...options.policy };
  const now = options.now ?? Date.now;
  const trustProxy = options.trustProxy ?? false;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const reportsDir = options.reportsDir ?? defaultReportsDir;
  const previewRows = options.previewRows ?? 20;
  const pool = createPool({ url: options.databaseUrl, name: 'portal', max: 10 });
  const health = accountHealthCache(pool);
  health.read().catch(() => {}); // warm the cache before the first page view
  const assets = await loadStaticAssets();
  const app = new Hono<Env>();
  const maxBodyBytes = 64 * 1024;
  const slots = downloadSlots({ ...defaultDownloadSlots, ...options.downloads });
  const scratchDir = options.scratchDir;

  const cookieOptions = (c: Context) => ({ httpOnly: true, sameSite: 'Strict' as const, secure: publicOrigin(c, trustProxy).secure, path: '/' });
  // Refuses a request whose parameters are not the route's (requestParameters.ts): 400, kept in
  // portal_access_denied with the reason, like a refused account.
  const only = (allowed: readonly string[]): MiddlewareHandler<Env> => async (c, next) => {
    const problem = await parameterProblem(c, allowed);
    if (problem === undefined) return next();
    const session = c.get('session') as PortalSession | undefined;
    const named = c.req.method === 'GET' ? c.req.query('account') : (await c.req.parseBody()).account;
    await logAccessDenied(pool, {
      nowMs: now(), user: session?.user, address: c.get('address'), method: c.req.method, path: c.req.path,
      account: typeof named === 'string' ? named : undefined, status: 400, reason: problem,
    }, log);
    if (c.req.path === '/charts/data') return c.json({ error: `refused: ${problem}` }, 400);
    return c.html(<ErrorPage status={400} message={`This request was refused: ${problem}.`} hint="Use the portal's own forms and links; a changed address or form is refused." user={session?.user} csrf={c.get('csrf')} />, 400);
  };
  const deny = async (c: Context<Env>, status: 403 | 404, account: string | undefined, message: string) => {
    const session = c.get('session');
    await logAccessDenied(pool, { nowMs: now(), user: session?.user, address: c.get('address'), method: c.req.method, path: c.req.path, account, status }, log);
    return c.html(<ErrorPage status={status} message={message} user={session?.user} csrf={c.get('csrf')} />, status);
  };
  // Checks an account named by a URL or form against the user's own list, on the server.
  const allowedAccount = async (c: Context<Env>, account: string, known?: VisibleAccount[]): Promise<{ accounts: VisibleAccount[]; refused?: Response }> => {
    const user = c.get('session').user;
    const accounts = known ?? await visibleAccounts(pool, user);
    if (account === '' && user.role !== 'admin') {
      return { accounts, refused: await deny(c, 403, '', 'Reports over every account are for administrators. Choose one of your accounts.') };
    }
    if (account !== '' && !accounts.some((a) => a.uid === account)) {
      return { accounts, refused: await deny(c, 404, account, 'There is no such account among the accounts you may see.') };
    }
    return { accounts };
  };

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
      log(JSON.stringify({ type: 'portal-body-too-large', at: new Date(now()).toISOString(), path: c.req.path, address: c.get('address') }));
      return c.text(`request body too large (the limit is ${maxBodyBytes / 1024} KiB)`, 413);
    },
  }));

  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'));
    if (!asset) return c.text('not found', 404);
    return c.body(new Uint8Array(asset.body), 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
  });

  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.get('/login', only(['ended', 'out']), async (c) => {
    if (await findSession(pool, getCookie(c, sessionCookie), now(), policy)) return c.redirect('/accounts', 303);
    // Reused while it lives: two tabs (or a stray request) must not invalidate each other's form.
    const existing = getCookie(c, loginCookie);
    const csrf = existing && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
    setCookie(c, loginCookie, csrf, { ...cookieOptions(c), maxAge: 3600 });
    const notice = c.req.query('ended') !== undefined ? 'Your session has ended. Please sign in again.'
      : c.req.query('out') !== undefined ? 'You have signed out.' : undefined;
    return c.html(<LoginPage csrf={csrf} notice={notice} />);
  });

  app.post('/login', only(['_csrf', 'username', 'password']), async (c) => {
    const address = c.get('address');
    const body = await c.req.parseBody();
    const username = String(body.username ?? '').trim().slice(0, 100);
    const password = String(body.password ?? '');
    const cookieCsrf = getCookie(c, loginCookie) ?? '';
    const again = (status: 401 | 403 | 429, error: string) => {
      const csrf = randomBytes(24).toString('base64url');
      setCookie(c, loginCookie, csrf, { ...cookieOptions(c), maxAge: 3600 });
      return c.html(<LoginPage csrf={csrf} error={error} username={username} />, status);
    };
    if (!sameOrigin(c, trustProxy) || cookieCsrf === '' || !sameText(String(body._csrf ?? ''), cookieCsrf)) {
      const reason = !sameOrigin(c, trustProxy) ? `origin ${c.req.header('origin') ?? '(none)'}` : cookieCsrf === '' ? 'no form cookie' : 'token mismatch';
      log(JSON.stringify({ type: 'portal-csrf-refused', at: new Date(now()).toISOString(), path: '/login', address, reason }));
      return again(403, 'The sign-in form had expired or came from another site. Please try again.');
    }
    const attempt = await claimLoginAttempt(pool, username, address, now(), policy);
    const block = attempt.blocked;
    if (block) {
      log(JSON.stringify({ type: 'portal-login-locked', at: new Date(now()).toISOString(), by: block.by, user: username, address }));
      const minutes = Math.ceil(block.retryAfterSeconds / 60);
      c.header('Retry-After', String(block.retryAfterSeconds));
      return again(429, `Too many failed sign-ins ${block.by === 'user' ? 'for this user' : 'from your address'}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    const { rows } = await pool.query('SELECT id, username, role, password_hash FROM portal_users WHERE lower(username) = lower($1)', [username]);
    const user = rows[0];
    const ok = await verifyPassword(password, user?.password_hash ?? await dummyPasswordHash);
    if (!user || !ok || attempt.blocked) {
      // The attempt was counted as a failure when it was claimed.
      await pruneLoginFailures(pool, now());
      log(JSON.stringify({ type: 'portal-login-failed', at: new Date(now()).toISOString(), user: username, address }));
      return again(401, 'Wrong user name or password.');
    }
    await loginSucceeded(pool, username, attempt.attemptId);
    const token = await openSession(pool, String(user.id), now(), policy, address, c.req.header('user-agent') ?? '');
    deleteCookie(c, loginCookie, { path: '/' });
    setCookie(c, sessionCookie, token, cookieOptions(c));
    return c.redirect('/accounts', 303);
  });

  // Everything below needs a live session; state-changing requests also need the CSRF token.
  app.use('*', async (c, next) => {
    const token = getCookie(c, sessionCookie);
    const session = await findSession(pool, token, now(), policy);
    if (!session || !token) {
      const target = token ? '/login?ended' : '/login';
      if (token) deleteCookie(c, sessionCookie, { path: '/' });
      if (c.req.header('hx-request')) { c.header('HX-Redirect', target); return c.body(null, 401); }
      if (c.req.method !== 'GET') return c.text('Sign in first.', 401);
      return c.redirect(target, 303);
    }
    c.set('session', session);
    c.set('token', token);
    c.set('csrf', csrfToken(token));
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const body = c.req.header('content-type')?.includes('form') ? await c.req.parseBody() : {};
      const sent = c.req.header('x-csrf-token') ?? String(body._csrf ?? '');
      if (!sameOrigin(c, trustProxy) || !sameText(sent, c.get('csrf'))) {
        log(JSON.stringify({ type: 'portal-csrf-refused', at: new Date(now()).toISOString(), path: c.req.path, user: session.user.username, address: c.get('address') }));
        return c.html(<ErrorPage status={403} message="This request did not come from a portal page, so it was refused." hint="If you pressed a button in the portal, reload the page and try again." user={session.user} csrf={c.get('csrf')} />, 403);
      }
    }
    await next();
  });

  app.get('/', only([]), (c) => c.redirect('/accounts', 303));

  app.post('/logout', only(['_csrf']), async (c) => {
    await revokeSession(pool, c.get('session').id, c.get('session').user.id, now());
    deleteCookie(c, sessionCookie, { path: '/' });
    return c.redirect('/login?out', 303);
  });

  app.get('/accounts', only([]), async (c) => {
    const { user } = c.get('session');
    const [accounts, byUid] = await Promise.all([visibleAccounts(pool, user), health.read()]);
    const rows = accounts.map((account) => ({ account, health: healthOf(byUid, account.uid) }));
    return c.html(<AccountsPage user={user} csrf={c.get('csrf')} rows={rows} nowMs={now()} />);
  });

  app.get('/accounts/:uid', only([]), async (c) => {
    const { user } = c.get('session');
    const uid = c.req.param('uid');
    const { accounts, refused } = await allowedAccount(c, uid);
    if (refused) return refused;
    const account = accounts.find((a) => a.uid === uid)!;
    const warnings = rankedWarnings(healthOf(await health.read(), uid), { imported: account.kind === 'imported wallet' });
    const client = await pool.connect();
    try {
      const rows = await readReconciliation(client, uid, reportsDir);
      return c.html(<AccountPage user={user} csrf={c.get('csrf')} account={account} warnings={warnings} rows={rows} />);
    } finally {
      client.release();
    }
  });

  // Corrections (issue 22 item 6): the same library as `tradeledger classify`, for an account the
  // user may see; setCorrection and undoCorrection check the grant again inside their transaction.
  const correctionsPage = async (c: Context<Env>, account: VisibleAccount, message?: { kind: 'ok' | 'error'; text: string; hint?: string }, status: 200 | 400 | 403 = 200) => {
    const { user } = c.get('session');
    const [corrections, rows] = await Promise.all([
      listCorrections(pool, { username: user.username, account: account.uid }),
      correctableRows(pool, { username: user.username, account: account.uid, limit: 200 }),
    ]);
    return c.html(<CorrectionsPage user={user} csrf={c.get('csrf')} account={account} corrections={corrections} rows={rows} message={message} />, status);
  };
  const correctionFailure = (err: unknown) => (err instanceof TradeledgerError && (err.kind === 'config' || err.kind === 'auth')
    ? { message: { kind: 'error' as const, text: err.message, hint: err.hint }, status: (err.kind === 'auth' ? 403 : 400) as 400 | 403 } : undefined);
  app.get('/accounts/:uid/corrections', only(['set', 'undone']), async (c) => {
    const uid = c.req.param('uid');
    const { accounts, refused } = await allowedAccount(c, uid);
    if (refused) return refused;
    const done = c.req.query('set') ?? c.req.query('undone');
    const message = done && /^\d+$/.test(done) ? { kind: 'ok' as const, text: c.req.query('set') ? `Correction #${done} saved.` : `Correction #${done} undone.` } : undefined;
    return correctionsPage(c, accounts.find((a) => a.uid === uid)!, message);
  });
  app.post('/accounts/:uid/corrections', only(['_csrf', 'row', 'classification', 'other', 'price', 'price_currency', 'price_source', 'why']), async (c) => {
    const uid = c.req.param('uid');
    const { accounts, refused } = await allowedAccount(c, uid);
    if (refused) return refused;
    const body = await c.req.parseBody();
    const text = (k: string) => { const v = String(body[k] ?? '').trim(); return v === '' ? undefined : v; };
    try {
      const { correction } = await setCorrection(pool, {
        username: c.get('session').user.username, account: uid, row: text('row') ?? '', classification: text('classification'), otherSide: text('other'),
        price: text('price'), priceCurrency: text('price_currency'), priceSource: text('price_source'), why: text('why') ?? '',
      });
      log(JSON.stringify({ type: 'portal-correction-set', at: new Date(now()).toISOString(), user: c.get('session').user.username, account: uid, id: correction.id, row: correction.row }));
      return c.redirect(`/accounts/${encodeURIComponent(uid)}/corrections?set=${correction.id}`, 303);
    } catch (err) {
      const failed = correctionFailure(err);
      if (!failed) throw err;
      return correctionsPage(c, accounts.find((a) => a.uid === uid)!, failed.message, failed.status);
    }
  });
  app.post('/accounts/:uid/corrections/:id/undo', only(['_csrf', 'why']), async (c) => {
    const uid = c.req.param('uid');
    const { accounts, refused } = await allowedAccount(c, uid);
    if (refused) return refused;
    const id = c.req.param('id');
    // the correction must be one of this account's: another account's id is not found here
    const owner = /^\d{1,18}$/.test(id) ? (await pool.query('SELECT account_uid FROM ledger_corrections WHERE id = $1', [id])).rows[0]?.account_uid : undefined;
    if (owner !== uid) return deny(c, 404, uid, 'There is no such correction on this account.');
    const body = await c.req.parseBody();
    try {
      await undoCorrection(pool, { username: c.get('session').user.username, id, why: String(body.why ?? '') });
      log(JSON.stringify({ type: 'portal-correction-undone', at: new Date(now()).toISOString(), user: c.get('session').user.username, account: uid, id }));
      return c.redirect(`/accounts/${encodeURIComponent(uid)}/corrections?undone=${id}`, 303);
    } catch (err) {
      const failed = correctionFailure(err);
      if (!failed) throw err;
      return correctionsPage(c, accounts.find((a) => a.uid === uid)!, failed.message, failed.status);
    }
  });

  // A GET's fields are its query; a POST's its form body (the CSRF token aside).
  const fields = async (c: Context<Env>): Promise<Record<string, string>> => {
    if (c.req.method === 'GET') return c.req.query();
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '_csrf'));
  };
  const formValues = (c: Context<Env>, accounts: VisibleAccount[], q: Record<string, string | undefined> = c.req.query()): ReportFormValues => {
    const user = c.get('session').user;
    const year = q.year ?? String(new Date(now()).getUTCFullYear() - 1);
    const format = (reportFormats as readonly string[]).includes(q.format ?? '') ? q.format as ReportFormat : 'native';
    return {
      account: q.account ?? (user.role === 'admin' ? '' : accounts[0]?.uid ?? ''),
      period: q.period === 'range' ? 'range' : 'year', year, from: q.from ?? `${year}-01-01`, to: q.to ?? `${Number(year) + 1}-01-01`,
      tz: q.tz ?? 'UTC', format, file: q.file ?? '', fiat: q.fiat ?? 'USD', includeDemo: checkboxOn(q.include_demo),
    };
  };
  const toRequest = (v: ReportFormValues): ReportRequest => reportRequest({
    period: v.period, year: v.period === 'year' ? v.year : undefined, from: v.from, to: v.to, tz: v.tz, format: v.format, account: v.account, file: v.file || undefined, fiat: v.fiat, include_demo: v.includeDemo ? '1' : undefined,
  });
  const previewOf = async (v: ReportFormValues): Promise<PreviewState> => {
    try {
      const request = toRequest(v);
      return { kind: 'rows', preview: await reportPreview(pool, request, previewRows, reportsDir), values: { ...v, file: request.file } };
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') return { kind: 'error', message: err.message, hint: err.hint };
      throw err;
    }
  };
  // What a report of this account would carry, most serious for a tax figure first (accountWarnings.ts).
  const warningsFor = async (account: string): Promise<string[]> => {
    if (account === '') return [];
    return rankedWarnings(healthOf(await health.read(), account), { imported: false })
      .filter((w) => w.severity !== 'info' && w.code !== 'never_synced').map((w) => w.text);
  };

  app.get('/reports', only(reportFields), async (c) => {
    const user = c.get('session').user;
    const pre = await visibleAccounts(pool, user);
    const values = formValues(c, pre);
    const { accounts, refused } = await allowedAccount(c, values.account, pre);
    if (refused) return refused;
    const preview = c.req.query('format') !== undefined ? await previewOf(values) : { kind: 'none' as const };
    return c.html(<ReportsPage user={user} csrf={c.get('csrf')} accounts={accounts} values={values} preview={preview} warnings={await warningsFor(values.account)} />);
  });

  app.get('/reports/preview', only(reportFields), async (c) => {
    const pre = await visibleAccounts(pool, c.get('session').user);
    const values = formValues(c, pre);
    const { refused } = await allowedAccount(c, values.account, pre);
    if (refused) return refused;
    const state = await previewOf(values);
    return c.html(<PreviewPanel state={state} />, state.kind === 'error' ? 400 : 200);
  });

  const download = async (c: Context<Env>, kind: 'file' | 'zip') => {
    const values = formValues(c, [], await fields(c));
    const { refused } = await allowedAccount(c, values.account);
    if (refused) return refused;
    let request: ReportRequest;
    try {
      request = toRequest(values);
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') {
        return c.html(<ErrorPage status={400} message={err.message} hint={err.hint} user={c.get('session').user} csrf={c.get('csrf')} />, 400);
      }
      throw err;
    }
    return inSlot(c, (run) => kind === 'file' ? prepareCsv(options.databaseUrl, request, reportsDir, run) : prepareZip(options.databaseUrl, request, reportsDir, run),
      () => request, (prepared) => kind === 'file' ? request.file : prepared.fileName);
  };

  // Runs one download in a slot of the shared pool (downloadSlots.ts) and sends it. The browser
  // going away (before the first byte, while it waits for a slot, or mid-file) aborts it at once:
  // its queries are cancelled on the server and its temporary folder removed; then the slot is free.
  const inSlot = async (c: Context<Env>, prepare: (run: DownloadRun) => Promise<PreparedDownload>, subject: () => DownloadSubject, file: (prepared: PreparedDownload) => string) => {
    const outgoing = c.env.outgoing;
    const controller = new AbortController();
    const onClose = () => { if (!outgoing.writableFinished) controller.abort(new Error('the browser closed the connection')); };
    outgoing.once('close', onClose);
    const aborted = (stage: string) => {
      log(JSON.stringify({ type: 'portal-download-aborted', at: new Date(now()).toISOString(), path: c.req.path, user: c.get('session').user.username, address: c.get('address'), stage }));
      return RESPONSE_ALREADY_SENT;
    };
    let release: (() => void) | 'full';
    try {
      const waiting = slots.counts().waiting;
      const slot = slots.acquire(controller.signal);
      if (slots.counts().waiting > waiting) {
        log(JSON.stringify({ type: 'portal-download-queued', at: new Date(now()).toISOString(), path: c.req.path, user: c.get('session').user.username, ...slots.counts() }));
      }
      release = await slot;
    } catch {
      return aborted('waiting for a slot');
    }
    if (release === 'full') {
      outgoing.off('close', onClose);
      const { running, waiting } = slots.counts();
      log(JSON.stringify({ type: 'portal-download-busy', at: new Date(now()).toISOString(), path: c.req.path, user: c.get('session').user.username, running, waiting }));
      c.header('Retry-After', String(downloadRetryAfterSeconds));
      return c.html(<ErrorPage status={503} message={`The portal is preparing ${running} downloads and ${waiting} more are waiting, so this one was not started.`} hint={`Try again in ${downloadRetryAfterSeconds} seconds.`} user={c.get('session').user} csrf={c.get('csrf')} />, 503);
    }
    let prepared: PreparedDownload;
    try {
      prepared = await prepare({ signal: controller.signal, scratchDir });
    } catch (err) {
      release();
      if (controller.signal.aborted) return aborted('preparing');
      outgoing.off('close', onClose);
      if (err instanceof TradeledgerError && err.kind === 'config') {
        return c.html(<ErrorPage status={400} message={err.message} hint={err.hint} user={c.get('session').user} csrf={c.get('csrf')} />, 400);
      }
      throw err;
    }
    return send(c, prepared, subject(), file(prepared), controller, release);
  };

  // Sends a prepared download and writes its audit row (bytes and SHA-256 as they went out).
  const send = (c: Context<Env>, prepared: PreparedDownload, subject: DownloadSubject, file: string, controller: AbortController, release: () => void) => {
    const hash = createHash('sha256');
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) { hash.update(chunk); bytes += chunk.length; done(null, chunk); },
    });
    const { user } = c.get('session');
    const address = c.get('address');
    // Written straight to Node's response: a year's file goes out at the writer's pace without a
    // detour through web streams (measured slower on this 2-core machine).
    const outgoing = c.env.outgoing;
    outgoing.writeHead(200, {
      'Content-Type': prepared.contentType,
      'Content-Disposition': `attachment; filename="${prepared.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
    });
    pipeline(prepared.stream, counter, outgoing, (err) => {
      // A download that did not go out whole stops its writer now, not when the query ends.
      if (err) controller.abort(err);
      void (async () => {
        const sent = hash.digest('hex');
        // Complete: every byte went out and, for a CSV, they hash to what the runner wrote.
        const written = await prepared.written.then((w) => w, () => undefined);
        const complete = !err && written !== undefined && (written.sha256 === undefined || written.sha256 === sent);
        await auditDownload(pool, {
          nowMs: now(), user, address, request: subject, file, bytes, sha256: sent, complete,
        });
      })().catch((e: unknown) => log(JSON.stringify({ type: 'portal-audit-failed', error: e instanceof Error ? e.message : String(e) })))
        .finally(() => { void prepared.remove().finally(release); });
    });
    return RESPONSE_ALREADY_SENT;
  };

  // Downloads run queries, write temporary files and an audit row (gains also a run in gains_*):
  // POST only, with the CSRF token, so a link or an <img> on another page cannot start one.
  const postOnly = (c: Context<Env>) => {
    log(JSON.stringify({ type: 'portal-get-refused', at: new Date(now()).toISOString(), path: c.req.path, user: c.get('session').user.username, address: c.get('address') }));
    c.header('Allow', 'POST');
    return c.html(<ErrorPage status={405} message="Downloads start from the buttons on the Reports page." hint="Open Reports, choose the period and format, and press a download button." user={c.get('session').user} csrf={c.get('csrf')} />, 405);
  };
  app.get('/download/file', postOnly);
  app.get('/download/zip', postOnly);
  app.post('/download/file', only([...reportFields, '_csrf']), (c) => download(c, 'file'));
  app.post('/download/zip', only([...reportFields, '_csrf']), (c) => download(c, 'zip'));

  // Gains: `tradeledger gains`' own runGains, for one account the user may see (admins: or all).
  const gainsDownload = async (c: Context<Env>, kind: 'file' | 'zip') => {
    const q = await fields(c);
    const { refused } = await allowedAccount(c, q.account ?? '');
    if (refused) return refused;
    let request: GainsRequest;
    try {
      request = gainsRequest(q);
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') {
        return c.html(<ErrorPage status={400} message={err.message} hint={err.hint} user={c.get('session').user} csrf={c.get('csrf')} />, 400);
      }
      throw err;
    }
    const subject = { account: request.account, format: `gains-${request.rules}-${request.fiat}`, period: { ...gainsPeriod(request), tz: request.tz } };
    return inSlot(c, (run) => kind === 'file' ? prepareGainsFile(options.databaseUrl, request, reportsDir, run) : prepareGainsZip(options.databaseUrl, request, reportsDir, run),
      () => subject, (prepared) => kind === 'file' ? `${gainsLabel(request)}/${request.file}` : prepared.fileName);
  };
  app.get('/gains/download/file', postOnly);
  app.get('/gains/download/zip', postOnly);
  app.post('/gains/download/file', only([...gainsFields, '_csrf']), (c) => gainsDownload(c, 'file'));
  app.post('/gains/download/zip', only([...gainsFields, '_csrf']), (c) => gainsDownload(c, 'zip'));

  app.get('/charts', only(chartFields), async (c) => {
    const user = c.get('session').user;
    const pre = await visibleAccounts(pool, user);
    const account = c.req.query('account') ?? (user.role === 'admin' ? '' : pre[0]?.uid ?? '');
    const { accounts, refused } = await allowedAccount(c, account, pre);
    if (refused) return refused;
    const year = c.req.query('year') ?? String(new Date(now()).getUTCFullYear());
    const tz = c.req.query('tz') ?? 'UTC';
    const fiat = (c.req.query('fiat') ?? 'USD').toUpperCase();
    const dataUrl = `/charts/data?${new URLSearchParams({ account, year, tz, fiat })}`;
    return c.html(<ChartsPage user={user} csrf={c.get('csrf')} accounts={accounts} account={account} year={year} tz={tz} fiat={fiat} dataUrl={dataUrl} />);
  });

  app.get('/charts/data', only(chartFields), async (c) => {
    const account = c.req.query('account') ?? '';
    const { refused } = await allowedAccount(c, account);
    if (refused) return c.json({ error: 'not allowed' }, refused.status as 403 | 404);
    try {
      const period = reportPeriod({ year: c.req.query('year') ?? '', tz: c.req.query('tz') ?? 'UTC' });
      const fiat = (c.req.query('fiat') ?? 'USD').toUpperCase();
      if (!/^[A-Z]{3}$/.test(fiat)) return c.json({ error: `'${fiat}' is not a currency code`, hint: 'Use an ISO 4217 code: USD, EUR, GBP ...' }, 400);
      return c.json(await chartData(pool, period, account, fiat));
    } catch (err) {
      if (err instanceof TradeledgerError && err.kind === 'config') return c.json({ error: err.message, hint: err.hint }, 400);
      throw err;
    }
  });

  app.get('/sessions', only([]), async (c) => {
    const session = c.get('session');
    const sessions = await listSessions(pool, session.user.id, now());
    return c.html(<SessionsPage user={session.user} csrf={c.get('csrf')} sessions={sessions} currentId={session.id} />);
  });

  app.post('/sessions/:id/revoke', only(['_csrf']), async (c) => {
    const session = c.get('session');
    const done = await revokeSession(pool, c.req.param('id'), session.user.id, now());
    if (!done) return c.html(<ErrorPage status={404} message="No such session of yours." user={session.user} csrf={c.get('csrf')} />, 404);
    return c.redirect('/sessions', 303);
  });

  app.notFound((c) => c.html(<ErrorPage status={404} message="There is no such page." />, 404));
  app.onError((err, c) => {
    log(JSON.stringify({ type: 'portal-error', path: c.req.path, error: err instanceof Error ? err.message : String(err) }));
    const user = (c as Context<Env>).get('session')?.user as PortalUser | undefined;
    const message = err instanceof TradeledgerError && err.kind === 'config' ? err.message : 'Something went wrong on the server. The error is in the server log.';
    return c.html(<ErrorPage status={500} message={message} user={user} />, 500);
  });

  return { app, close: () => pool.end() };
}

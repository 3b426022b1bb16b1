/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import { TradeledgerError } from '../../errors.js';
import { correctableRows, listCorrections, setCorrection, undoCorrection } from '../../corrections/ledgerCorrections.js';
import type { VisibleAccount } from '../accountAccess.js';
import { CorrectionsPage } from '../views/correctionsPage.js';
import type { Env, Guards, PortalDeps, PortalHono } from './shared.js';

type Message = { kind: 'ok' | 'error'; text: string; hint?: string };

// A refused correction (a bad form: 400; no grant: 403) is shown on the page; anything else is thrown.
const correctionFailure = (err: unknown) => (err instanceof TradeledgerError && (err.kind === 'config' || err.kind === 'auth')
  ? { message: { kind: 'error' as const, text: err.message, hint: err.hint }, status: (err.kind === 'auth' ? 403 : 400) as 400 | 403 } : undefined);

/**
 * Corrections (issue 22 item 6): the same library as `tradeledger classify`, for an account the
 * user may see; setCorrection and undoCorrection check the grant again inside their transaction.
 *
 * @example
 * correctionRoutes(app, deps, guards(deps));
 */
export function correctionRoutes(app: PortalHono, { pool, log }: PortalDeps, { only, deny, allowedAccount }: Guards): void {
  const correctionsPage = async (c: Context<Env>, account: VisibleAccount, message?: Message, status: 200 | 400 | 403 = 200) => {
    const { user } = c.get('session');
    const [corrections, rows] = await Promise.all([
      listCorrections(pool, { username: user.username, account: account.uid }),
      correctableRows(pool, { username: user.username, account: account.uid, limit: 200 }),
    ]);
    return c.html(<CorrectionsPage user={user} csrf={c.get('csrf')} account={account} corrections={corrections} rows={rows} message={message} />, status);
  };

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
      log('portal-correction-set', { user: c.get('session').user.username, account: uid, id: correction.id, row: correction.row });
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
      log('portal-correction-undone', { user: c.get('session').user.username, account: uid, id });
      return c.redirect(`/accounts/${encodeURIComponent(uid)}/corrections?undone=${id}`, 303);
    } catch (err) {
      const failed = correctionFailure(err);
      if (!failed) throw err;
      return correctionsPage(c, accounts.find((a) => a.uid === uid)!, failed.message, failed.status);
    }
  });
}

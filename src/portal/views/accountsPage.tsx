/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { ago, utcMinute } from './format.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { AccountHealth } from '../accountHealth.js';
import { rankedWarnings } from '../accountWarnings.js';
import type { AccountWarning } from '../accountWarnings.js';

/** One account with its health, as the accounts page lists it. */
export interface AccountRow {
  account: VisibleAccount;
  health: AccountHealth;
}

function warningsOf(account: VisibleAccount, h: AccountHealth): AccountWarning[] {
  return rankedWarnings(h, { imported: account.kind === 'imported wallet' });
}

const redBadge = (k: number) => (k === 1 ? '1 affects a tax figure' : `${k} affect tax figures`);
const levelOf = (w: AccountWarning) => (w.severity === 'red' ? 'error' : w.severity === 'amber' ? 'warn' : 'info');

/**
 * The accounts a user may see, each with its last sync, its watermark and every data-quality
 * warning spelled out in red or amber above the row's links.
 *
 * @example
 * c.html(<AccountsPage user={user} csrf={csrf} rows={rows} nowMs={Date.now()} />)
 */
export function AccountsPage(props: { user: PortalUser; csrf: string; rows: AccountRow[]; nowMs: number }) {
  // Only what touches a tax figure (red) or needs completing (amber) counts; 'info' changes none.
  const serious = (ws: AccountWarning[]) => ws.filter((w) => w.severity !== 'info');
  const warned = props.rows.map((r) => ({ ...r, all: warningsOf(r.account, r.health) }));
  const withWarnings = warned.filter((r) => serious(r.all).length > 0).length;
  // The banner is red only when a warning changes a tax figure; amber ones need completing.
  const withRed = warned.filter((r) => r.all.some((w) => w.severity === 'red')).length;
  return (
    <Layout title="Accounts" user={props.user} csrf={props.csrf} active="accounts">
      <div class="page-head">
        <h1>Accounts</h1>
        <p class="muted">{props.rows.length} account(s) you may see. Times are UTC. The watermark is the time up to which every stream has been read completely.</p>
      </div>
      {withWarnings > 0 && (
        withRed > 0 ? (
          <div class="alert alert-error banner" role="alert" id="quality-banner" data-severity="red">
            <strong>{withWarnings} of {props.rows.length} account(s) have data-quality warnings.</strong> {withRed === 1 ? 'One changes' : `${withRed} change`} a tax figure; read the warnings below before you file anything.
          </div>
        ) : (
          <div class="alert alert-warn banner" role="status" id="quality-banner" data-severity="amber">
            <strong>{withWarnings} of {props.rows.length} account(s) have data-quality warnings.</strong> None changes a tax figure yet; each says what to complete.
          </div>
        )
      )}
      {/* An administrator sees every account: none means nothing is in the database yet, not a missing grant. */}
      {props.rows.length === 0 && (props.user.role === 'admin'
        ? <section class="card" id="no-accounts"><p>No accounts in this database yet. Run <code>tradeledger sync</code> (or <code>tradeledger import transactions</code>) against it, then reload this page.</p></section>
        : <section class="card" id="no-accounts"><p>No accounts are granted to you yet. Ask your administrator to run <code>tradeledger users grant</code>.</p></section>)}
      <div class="accounts">
        {warned.map(({ account, health, all }) => {
          const warnings = serious(all);
          const red = warnings.some((w) => w.severity === 'red');
          return (
            <section class={`card account ${red ? 'has-error' : warnings.length > 0 ? 'has-warn' : 'ok'}`} data-account={account.uid}>
              <div class="account-head">
                <div>
                  <h2>{account.name}</h2>
                  <div class="muted mono">UID {account.uid} · {account.kind}</div>
                </div>
                <span class={`badge ${warnings.length === 0 ? 'badge-ok' : red ? 'badge-error' : 'badge-warn'}`}>
                  {warnings.length === 0 ? 'Complete' : red ? redBadge(warnings.filter((w) => w.severity === 'red').length) : `${warnings.length} to complete`}
                </span>
              </div>
              <dl class="facts">
                <div><dt>Last sync</dt><dd>{utcMinute(health.lastSync)} <span class="muted">({ago(health.lastSync, props.nowMs)})</span></dd></div>
                <div><dt>Complete up to</dt><dd>{utcMinute(health.watermark)}</dd></div>
                <div><dt>Streams</dt><dd>{health.streams}</dd></div>
              </dl>
              {all.length > 0 && (
                <ul class="warnings">
                  {all.map((w) => <li class={`warning-${levelOf(w)}`} data-severity={w.severity} data-code={w.code}>{w.text}{w.fix && <span class="muted"> Fix: {w.fix}.</span>}</li>)}
                </ul>
              )}
              <div class="actions">
                <a class="button primary" href={`/reports?account=${encodeURIComponent(account.uid)}`}>Reports</a>
                <a class="button" href={`/accounts/${encodeURIComponent(account.uid)}`}>Balances</a>
                <a class="button" href={`/charts?account=${encodeURIComponent(account.uid)}`}>Charts</a>
              </div>
            </section>
          );
        })}
      </div>
    </Layout>
  );
}

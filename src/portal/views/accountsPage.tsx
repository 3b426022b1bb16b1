/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { ago, utcMinute } from './format.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { AccountHealth } from '../accountHealth.js';

/** One account with its health, as the accounts page lists it. */
export interface AccountRow {
  account: VisibleAccount;
  health: AccountHealth;
}

function warningsOf(account: VisibleAccount, h: AccountHealth): { level: 'error' | 'warn'; text: string }[] {
  const out: { level: 'error' | 'warn'; text: string }[] = [];
  // An imported wallet has no sync streams: its rows come from `tradeledger import transactions`.
  if (h.streams === 0 && account.kind !== 'imported wallet') out.push({ level: 'error', text: 'Never synced: there is no data for this account yet.' });
  for (const f of h.failedStreams) out.push({ level: 'error', text: `Stream ${f.stream}${f.partition === 'all' ? '' : `/${f.partition}`} failed in the last sync${f.error ? `: ${f.error.slice(0, 160)}` : ''}.` });
  for (const g of h.gaps) out.push({ level: 'error', text: `History gap in ${g.stream}: ${g.from.slice(0, 10)} to ${g.to.slice(0, 10)} cannot be read (${g.reason}).` });
  if (h.reconciliationDifferences > 0) out.push({ level: 'error', text: `${h.reconciliationDifferences} balance(s) differ from the exchange's own figure (see reconciliation.csv).` });
  if (h.flaggedRecords > 0) out.push({ level: 'warn', text: `${h.flaggedRecords} record(s) flagged as malformed or incomplete (see data-quality.csv).` });
  if (h.unclassifiedRows > 0) out.push({ level: 'warn', text: `${h.unclassifiedRows} ledger row(s) unclassified or without a coin (see data-quality.csv).` });
  if (h.unpricedRows > 0) out.push({ level: 'warn', text: `${h.unpricedRows} ledger row(s) have no ${h.unpricedFiat} value (no candle, fill price or stablecoin quote): fiat values and gains leave them out (see data-quality.csv, kind unpriced).` });
  return out;
}

/**
 * The accounts a user may see, each with its last sync, its watermark and every data-quality
 * warning spelled out in red or amber above the row's links.
 *
 * @example
 * c.html(<AccountsPage user={user} csrf={csrf} rows={rows} nowMs={Date.now()} />)
 */
export function AccountsPage(props: { user: PortalUser; csrf: string; rows: AccountRow[]; nowMs: number }) {
  const withWarnings = props.rows.filter((r) => warningsOf(r.account, r.health).length > 0).length;
  return (
    <Layout title="Accounts" user={props.user} csrf={props.csrf} active="accounts">
      <div class="page-head">
        <h1>Accounts</h1>
        <p class="muted">{props.rows.length} account(s) you may see. Times are UTC. The watermark is the time up to which every stream has been read completely.</p>
      </div>
      {withWarnings > 0 && (
        <div class="alert alert-error banner" role="alert" id="quality-banner">
          <strong>{withWarnings} of {props.rows.length} account(s) have data-quality warnings.</strong> Reports for them may be incomplete; read the warnings below before you file anything.
        </div>
      )}
      {props.rows.length === 0 && <section class="card"><p>No accounts are granted to you yet. Ask your administrator to run <code>tradeledger users grant</code>.</p></section>}
      <div class="accounts">
        {props.rows.map(({ account, health }) => {
          const warnings = warningsOf(account, health);
          return (
            <section class={`card account ${warnings.some((w) => w.level === 'error') ? 'has-error' : warnings.length > 0 ? 'has-warn' : 'ok'}`} data-account={account.uid}>
              <div class="account-head">
                <div>
                  <h2>{account.name}</h2>
                  <div class="muted mono">UID {account.uid} · {account.kind}</div>
                </div>
                <span class={`badge ${warnings.length === 0 ? 'badge-ok' : warnings.some((w) => w.level === 'error') ? 'badge-error' : 'badge-warn'}`}>
                  {warnings.length === 0 ? 'Complete' : `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`}
                </span>
              </div>
              <dl class="facts">
                <div><dt>Last sync</dt><dd>{utcMinute(health.lastSync)} <span class="muted">({ago(health.lastSync, props.nowMs)})</span></dd></div>
                <div><dt>Complete up to</dt><dd>{utcMinute(health.watermark)}</dd></div>
                <div><dt>Streams</dt><dd>{health.streams}</dd></div>
              </dl>
              {warnings.length > 0 && (
                <ul class="warnings">
                  {warnings.map((w) => <li class={`warning-${w.level}`}>{w.text}</li>)}
                </ul>
              )}
              <div class="actions">
                <a class="button primary" href={`/reports?account=${encodeURIComponent(account.uid)}`}>Reports</a>
                <a class="button" href={`/charts?account=${encodeURIComponent(account.uid)}`}>Charts</a>
              </div>
            </section>
          );
        })}
      </div>
    </Layout>
  );
}

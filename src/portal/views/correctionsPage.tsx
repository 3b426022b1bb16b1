/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { CorrectableRow, Correction } from '../../corrections/ledgerCorrections.js';
import { classifications } from '../../corrections/classifications.js';

const what = (c: { classification: string | null; price: string | null; priceCurrency: string | null }) =>
  [c.classification, c.price === null ? null : `price ${c.price} ${c.priceCurrency}`].filter(Boolean).join(', ');

/**
 * One account's corrections: those in force (each with an undo form that asks why), a form to
 * set one (row, classification or price with its source, why), and the account's deposits and
 * withdrawals with their row ids. The server checks the user's grant on every request.
 *
 * @example
 * c.html(<CorrectionsPage user={user} csrf={csrf} account={account} corrections={list} rows={rows} />)
 */
export function CorrectionsPage(props: {
  user: PortalUser; csrf: string; account: VisibleAccount; corrections: Correction[]; rows: CorrectableRow[];
  message?: { kind: 'ok' | 'error'; text: string; hint?: string };
}) {
  const base = `/accounts/${encodeURIComponent(props.account.uid)}/corrections`;
  return (
    <Layout title={`Corrections · ${props.account.name}`} user={props.user} csrf={props.csrf} active="accounts">
      <div class="page-head">
        <h1>Corrections: {props.account.name}</h1>
        <p class="muted mono">UID {props.account.uid} · every correction records who, when and why, and flows into values, gains, income and every tax-tool file</p>
      </div>
      {props.message && (
        <p class={props.message.kind === 'ok' ? 'notice' : 'warning-error'} id="correction-message" role={props.message.kind === 'error' ? 'alert' : 'status'}>
          {props.message.text}{props.message.hint && <span class="muted"> {props.message.hint}</span>}
        </p>
      )}
      <section class="card" id="corrections-in-force">
        <h2>In force ({props.corrections.length})</h2>
        {props.corrections.length === 0 ? <p class="muted">No corrections on this account.</p> : (
          <div class="table-wrap">
            <table class="data">
              <thead><tr><th>#</th><th>Row and its time (UTC)</th><th>Amount</th><th>Correction</th><th>Why</th><th>By</th><th>Undo</th></tr></thead>
              <tbody>
                {props.corrections.map((c) => (
                  <tr data-correction={c.id} data-row={c.row}>
                    <td>{c.id}</td>
                    <td class="mono">{c.row}<br /><span class="muted">{c.ts ?? 'not in the ledger now'}</span></td>
                    <td class="num">{c.amount} {c.coin}</td>
                    <td class="wrap" data-classification={c.classification ?? ''}>{what(c)}{c.otherSide && ` (other side ${c.otherSide})`}{c.priceSource && ` (source: ${c.priceSource})`}</td>
                    <td class="wrap">{c.why}</td>
                    <td>{c.setBy}<br />{c.setAt}</td>
                    <td>
                      <form method="post" action={`${base}/${c.id}/undo`} class="stacked">
                        <input type="hidden" name="_csrf" value={props.csrf} />
                        <input type="text" name="why" required size={12} placeholder="why undo" aria-label={`why undo #${c.id}`} />
                        <button type="submit" class="button small">Undo</button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section class="card" id="correction-form">
        <h2>Correct a row</h2>
        <form method="post" action={base}>
          <input type="hidden" name="_csrf" value={props.csrf} />
          <label>Row (source:id) <input type="text" name="row" required list="correctable-rows" /></label>
          <label>Classification
            <select name="classification">
              <option value="">(none: price only)</option>
              {classifications.map((k) => <option value={k.name} title={k.meaning}>{k.name} ({k.direction})</option>)}
            </select>
          </label>
          <label>Other side (own_wallet) <input type="text" name="other" /></label>
          <label>Unit price <input type="text" name="price" inputmode="decimal" /></label>
          <label>Price currency <input type="text" name="price_currency" size={4} /></label>
          <label>Price source <input type="text" name="price_source" /></label>
          <label>Why <input type="text" name="why" required /></label>
          <button type="submit" class="button primary">Save correction</button>
        </form>
        <ul class="muted">
          {classifications.map((k) => <li><code>{k.name}</code>: {k.meaning}</li>)}
        </ul>
      </section>
      <section class="card" id="correctable-rows-card">
        <h2>Deposits and withdrawals (newest {props.rows.length})</h2>
        <datalist id="correctable-rows">{props.rows.map((r) => <option value={r.row} />)}</datalist>
        <div class="table-wrap">
          <table class="data">
            <thead><tr><th>Row</th><th>Time (UTC)</th><th>Kind</th><th>Amount</th><th>Address</th><th>Correction</th></tr></thead>
            <tbody>
              {props.rows.map((r) => (
                <tr data-row={r.row}>
                  <td class="mono">{r.row}</td>
                  <td>{r.ts}</td>
                  <td>{r.kind}</td>
                  <td class="num">{r.amount} {r.coin}</td>
                  <td class="mono address">{r.counterparty ?? ''}</td>
                  <td class="wrap">{r.correction ? `#${r.correction.id} ${what(r.correction)}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div class="actions">
        <a class="button" href={`/accounts/${encodeURIComponent(props.account.uid)}`}>Back to the account</a>
      </div>
    </Layout>
  );
}

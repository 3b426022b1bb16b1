/** @jsxImportSource hono/jsx */
import { Layout } from './layout.js';
import { AccountSelect } from './accountSelect.js';
import { fiatsNote, GainsForm } from './gainsForm.js';
import { DemoCheckbox } from './demoCheckbox.js';
import type { PortalUser } from '../portalUser.js';
import type { VisibleAccount } from '../accountAccess.js';
import type { AccountWarning } from '../accountWarnings.js';
import type { ReportPreview } from '../reportPreview.js';
import { reportFiles, reportFormats } from '../../reports/reportFormats.js';
import type { ReportFormat } from '../../reports/reportFormats.js';

/** The report form's current values (as typed, so a bad value is shown back). */
export interface ReportFormValues {
  account: string;
  period: 'year' | 'range';
  year: string;
  from: string;
  to: string;
  tz: string;
  format: ReportFormat;
  file: string;
  fiat: string;
  /** The "Include demo-trading accounts" checkbox (`report --include-demo`). */
  includeDemo: boolean;
}

const formatLabels: Record<ReportFormat, string> = {
  native: 'Native CSVs (all subjects)',
  koinly: 'Koinly universal CSV',
  cointracking: 'CoinTracking CSV',
  cointracker: 'CoinTracker CSV',
  ctc: 'CryptoTaxCalculator advanced CSV',
};

const zones = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'Europe/Zurich', 'America/New_York', 'America/Chicago',
  'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Singapore', 'Asia/Hong_Kong', 'Australia/Sydney'];

/** What the preview area shows: rows, an error, or nothing yet. */
export type PreviewState = { kind: 'rows'; preview: ReportPreview; values: ReportFormValues; endNote?: string | undefined } | { kind: 'error'; message: string; hint?: string } | { kind: 'none' };

/**
 * The preview area (also the htmx partial): the file picker of the format, the first rows as
 * they will be in the CSV, or the problem with the form's values.
 *
 * @example
 * c.html(<PreviewPanel state={{ kind: 'rows', preview, values }} />)
 */
export function PreviewPanel(props: { state: PreviewState }) {
  const s = props.state;
  if (s.kind === 'none') return <div id="preview" class="preview muted">Choose the period and format, then press Preview.</div>;
  if (s.kind === 'error') {
    return (
      <div id="preview" class="preview">
        <p class="alert alert-error" role="alert">{s.message}{s.hint && <><br /><span class="muted">{s.hint}</span></>}</p>
      </div>
    );
  }
  const files = reportFiles(s.values.format).map((f) => f.file);
  // Amounts line up on the right; ids stay left even when they are digits.
  const amountColumn = s.preview.columns.map((c) => !/(^|_)(uid|id)$/i.test(c));
  return (
    <div id="preview" class="preview">
      {s.endNote !== undefined && <p class="alert alert-warn" id="end-date-note" role="status">{s.endNote}</p>}
      <div class="preview-head">
        {files.length > 1
          ? <label class="inline">File <select name="file" form="report-form" hx-get="/reports/preview" hx-include="#report-form" hx-target="#preview" hx-swap="outerHTML">
              {files.map((f) => <option value={f} selected={f === s.values.file}>{f}</option>)}
            </select></label>
          : <span class="mono">{s.values.file}</span>}
        <span class="muted">{s.preview.rows.length === 0 ? 'No rows in this period.' : `First ${s.preview.rows.length} row(s)${s.preview.more ? ' of more' : ''}, exactly as in the file.`}</span>
      </div>
      <div class="table-wrap">
        <table class="data">
          <thead><tr>{s.preview.columns.map((c) => <th>{c}</th>)}</tr></thead>
          <tbody>
            {s.preview.rows.map((row) => <tr>{row.map((v, i) => <td class={amountColumn[i] && v !== null && /^-?\d+(\.\d+)?$/.test(v) ? 'num' : ''}>{v ?? ''}</td>)}</tr>)}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The report page: account, period (a year or a date range), time zone and format; a preview of
 * the first rows; and downloads of one file or a zip of the whole folder with its manifest; below
 * them the gains reports (GainsForm).
 *
 * @example
 * c.html(<ReportsPage user={user} csrf={csrf} accounts={accounts} values={values} preview={{ kind: 'none' }} warnings={[]} valueCurrencies={['USD']} />)
 */
export function ReportsPage(props: { user: PortalUser; csrf: string; accounts: VisibleAccount[]; values: ReportFormValues; preview: PreviewState; warnings: AccountWarning[]; valueCurrencies: string[] }) {
  const v = props.values;
  return (
    <Layout title="Reports" user={props.user} csrf={props.csrf} active="reports">
      <div class="page-head">
        <h1>Reports</h1>
        <p class="muted">The same files <code>tradeledger report</code> writes, byte for byte. Dates are local to the time zone; the end date is not included.</p>
      </div>
      {props.warnings.length > 0 && (
        // Red only when a warning changes a tax figure, as on the accounts page; amber ones need completing.
        <div class={`alert ${props.warnings.some((w) => w.severity === 'red') ? 'alert-error' : 'alert-warn'} banner`}
          role={props.warnings.some((w) => w.severity === 'red') ? 'alert' : 'status'}>
          <strong>This account's data has warnings:</strong>
          <ul>{props.warnings.map((w) => <li>{w.text}</li>)}</ul>
          <a href="/accounts">See the accounts page</a>
        </div>
      )}
      <form id="report-form" class="card report-form" method="get" action="/reports"
        hx-get="/reports/preview" hx-target="#preview" hx-swap="outerHTML" hx-trigger="change delay:150ms">
        <div class="grid">
          <AccountSelect user={props.user} accounts={props.accounts} selected={v.account} />
          <fieldset class="period">
            <legend>Period</legend>
            <label class="inline"><input type="radio" name="period" value="year" checked={v.period === 'year'} /> Tax year</label>
            <input name="year" inputmode="numeric" pattern="\d{4}" value={v.year} aria-label="Year" class="short" />
            <label class="inline"><input type="radio" name="period" value="range" checked={v.period === 'range'} /> From</label>
            <input type="date" name="from" value={v.from} aria-label="From (included)" />
            <span>to</span>
            <input type="date" name="to" value={v.to} aria-label="To (not included)" />
          </fieldset>
          <label>Time zone
            <input name="tz" value={v.tz} list="zones" />
            <datalist id="zones">{zones.map((z) => <option value={z} />)}</datalist>
          </label>
          <label title="The currency of valued-ledger.csv, Koinly Net Worth and unpriced rows (tradeledger report --fiat)">Fiat
            <input name="fiat" value={v.fiat} pattern="[A-Za-z]{3}" class="short" list="gains-fiats" />
          </label>
          <label>Format
            <select name="format">
              {reportFormats.map((f) => <option value={f} selected={f === v.format}>{formatLabels[f]}</option>)}
            </select>
          </label>
        </div>
        {/* As on the gains form: in a fiat without ECB rates every value is empty (tradeledger report warns the same). */}
        <p class="muted" id="report-fiats-note">
          {fiatsNote(props.valueCurrencies, 'valued-ledger.csv\'s values and koinly.csv\'s Net Worth are empty, and data-quality.csv lists every such row as unpriced.')}
        </p>
        <DemoCheckbox id="report-include-demo" checked={v.includeDemo} />
        <div class="actions">
          <button type="submit" class="button">Preview</button>
          {/* Downloads are POSTs (they run queries and write the audit); the CSRF token rides on the
              pressed button only, so the Preview's GET never puts it in an address. */}
          <button type="submit" class="button primary" formmethod="post" formaction="/download/file" name="_csrf" value={props.csrf} id="download-file">Download this file</button>
          <button type="submit" class="button" formmethod="post" formaction="/download/zip" name="_csrf" value={props.csrf} id="download-zip">Download all as zip (with manifest)</button>
        </div>
      </form>
      <PreviewPanel state={props.preview} />
      <GainsForm user={props.user} csrf={props.csrf} accounts={props.accounts} account={v.account} year={v.year} valueCurrencies={props.valueCurrencies} />
    </Layout>
  );
}

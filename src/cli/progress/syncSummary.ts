import type { SyncResult } from '../../extract/runSync.js';
import type { StreamCounts } from '../../extract/streamCounts.js';
import { andList } from '../../portal/accountWarnings.js';

/**
 * A short human summary of a run: per account and stream the rows inserted, updated and
 * unchanged, then failures, history gaps and history an earlier --since added, and what to do next.
 *
 * @example
 * process.stdout.write(syncSummary(result));
 */
export function syncSummary(r: SyncResult): string {
  const byStream = new Map<string, StreamCounts>();
  for (const [label, c] of Object.entries(r.counts)) {
    const [account, stream] = label.split('/');
    const key = `${account}/${stream}`;
    const t = byStream.get(key) ?? { inserted: 0, updated: 0, unchanged: 0, pages: 0, requests: 0, windows: 0 };
    for (const k of Object.keys(t) as (keyof StreamCounts)[]) t[k] += c[k];
    byStream.set(key, t);
  }
  const state = r.status === 'ok' ? 'complete'
    : r.status === 'failed' ? 'FAILED (the database connection was lost; rerun to resume)'
      : 'PARTIAL (some streams failed; rerun to resume them)';
  const lines = [`sync run ${r.runId}: ${state}`];
  lines.push(`${'account/stream'.padEnd(40)} ${'inserted'.padStart(9)} ${'updated'.padStart(8)} ${'unchanged'.padStart(10)} ${'requests'.padStart(9)}`);
  for (const [key, c] of [...byStream.entries()].sort()) {
    lines.push(`${key.padEnd(40)} ${String(c.inserted).padStart(9)} ${String(c.updated).padStart(8)} ${String(c.unchanged).padStart(10)} ${String(c.requests).padStart(9)}`);
  }
  for (const e of r.errors) lines.push(`FAILED ${e.account}/${e.stream}/${e.partition}: ${e.message}`);
  // Gaps beyond an endpoint's horizon, one line per span of dates: the exchange serves orders for
  // the last 90 days only, so every order stream of every account has the same gap, and the
  // demo's six accounts printed eleven near-identical lines. Which of them changes a tax figure
  // takes the database (are the fills of those dates read?): `status` says it per account.
  const spans = new Map<string, Map<string, string[]>>();
  // The default start of a first sync (historyGap.ts) leaves every stream unread before it: one line per account.
  const unread = new Map<string, { before: string; streams: Set<string> }>();
  for (const g of r.gaps) {
    if (g.from.startsWith('1970-01-01')) {
      const u = unread.get(g.account) ?? { before: g.to, streams: new Set<string>() };
      u.streams.add(g.stream);
      if (g.to < u.before) u.before = g.to;
      unread.set(g.account, u);
      continue;
    }
    const span = `${g.from.slice(0, 10)} .. ${g.to.slice(0, 10)}`;
    const streams = spans.get(span) ?? new Map<string, string[]>();
    const accounts = streams.get(g.stream) ?? [];
    if (!accounts.includes(g.account)) accounts.push(g.account);
    streams.set(g.stream, accounts);
    spans.set(span, streams);
  }
  for (const [span, streams] of spans) {
    const where = [...streams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (where.length === 1 && where[0]![1].length === 1) {
      lines.push(`history gap ${where[0]![1][0]}/${where[0]![0]}: ${span} (older than the endpoint's horizon)`);
      continue;
    }
    const list = where.map(([stream, accounts]) => `${stream} of ${andList([...accounts].sort())}`).join('; ');
    lines.push(`history gap ${span} (older than the endpoints' horizons): ${list}; \`tradeledger status\` says whether it changes a tax figure`);
  }
  // History an earlier --since added (a backfill): one line per account.
  const added = new Map<string, { from: string; to: string; streams: Set<string> }>();
  for (const b of r.backfills) {
    const a = added.get(b.account) ?? { from: b.from, to: b.to, streams: new Set<string>() };
    a.streams.add(b.stream);
    if (b.from < a.from) a.from = b.from;
    if (b.to > a.to) a.to = b.to;
    added.set(b.account, a);
  }
  for (const [account, a] of added) lines.push(`history added ${account}: ${a.from.slice(0, 10)} .. ${a.to.slice(0, 10)} in ${a.streams.size} stream(s), read for --since (before where the earlier syncs began)`);
  for (const [account, u] of unread) lines.push(`history gap ${account}: before ${u.before.slice(0, 10)} in ${u.streams.size} stream(s), not read: a first sync starts sync.historyDays back; to read older history, sync again with --since YYYY-MM-DD`);
  return `${lines.join('\n')}\n`;
}

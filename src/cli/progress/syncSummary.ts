import type { SyncResult } from '../../extract/runSync.js';
import type { StreamCounts } from '../../extract/streamCounts.js';

/**
 * A short human summary of a run: per account and stream the rows inserted, updated and
 * unchanged, then failures and history gaps, and what to do next.
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
  const gaps = new Map<string, string>();
  // The default start of a first sync (historyGap.ts) leaves every stream unread before it: one line per account.
  const unread = new Map<string, { before: string; streams: Set<string> }>();
  for (const g of r.gaps) {
    if (g.from.startsWith('1970-01-01')) {
      const u = unread.get(g.account) ?? { before: g.to, streams: new Set<string>() };
      u.streams.add(g.stream);
      if (g.to < u.before) u.before = g.to;
      unread.set(g.account, u);
    } else gaps.set(`${g.account}/${g.stream}`, `${g.from.slice(0, 10)} .. ${g.to.slice(0, 10)}`);
  }
  for (const [k, v] of gaps) lines.push(`history gap ${k}: ${v} (older than the endpoint's horizon)`);
  for (const [account, u] of unread) lines.push(`history gap ${account}: before ${u.before.slice(0, 10)} in ${u.streams.size} stream(s), not read: a first sync starts sync.historyDays back; to read older history, run the first sync with --since YYYY-MM-DD`);
  return `${lines.join('\n')}\n`;
}

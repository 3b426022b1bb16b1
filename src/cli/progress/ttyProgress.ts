import type { SyncEvent, SyncEventSink } from '../../extract/syncEvent.js';

interface Row {
  records: number;
  windowsDone: number;
  windowsTotal: number;
  partitionsDone: number;
  partitions: number;
  failed: number;
  waitMs: number;
}

/**
 * A live table on a terminal: one line per account and stream with records stored, windows
 * walked, partitions finished or failed, and time spent waiting for rate budgets. Redrawn at
 * most ten times a second.
 *
 * @example
 * const progress = ttyProgress(process.stderr);
 * await runSync({ ...options, emit: progress.sink });
 * progress.stop();
 */
export function ttyProgress(out: NodeJS.WriteStream): { sink: SyncEventSink; stop: () => void } {
  const rows = new Map<string, Row>();
  const waits = new Map<string, number>();
  let drawn = 0;
  let dirty = false;
  const row = (account: string, stream: string): Row => {
    const key = `${account}/${stream}`;
    let r = rows.get(key);
    if (r === undefined) {
      r = { records: 0, windowsDone: 0, windowsTotal: 0, partitionsDone: 0, partitions: 0, failed: 0, waitMs: 0 };
      rows.set(key, r);
    }
    return r;
  };
  const draw = () => {
    if (!dirty) return;
    dirty = false;
    const lines = [...rows.entries()].map(([key, r]) => {
      const state = r.failed > 0 ? 'FAILED' : r.partitions > 0 && r.partitionsDone === r.partitions ? 'done' : 'running';
      const wait = waits.get(key.split('/')[0] ?? '') ?? 0;
      return `${key.padEnd(40)} ${String(r.records).padStart(9)} records  windows ${r.windowsDone}/${r.windowsTotal}`.padEnd(80)
        + ` ${state}${r.failed ? ` (${r.failed})` : ''}${wait ? `  rate waits ${(wait / 1000).toFixed(1)}s` : ''}`;
    });
    let text = drawn > 0 ? `\x1b[${drawn}F` : '';
    text += lines.map((l) => `\x1b[2K${l.slice(0, (out.columns ?? 120) - 1)}`).join('\n') + '\n';
    out.write(text);
    drawn = lines.length;
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  const sink = (e: SyncEvent) => {
    dirty = true;
    switch (e.type) {
      case 'partition-start': { const r = row(e.account, e.stream); r.partitions++; r.windowsTotal += e.windows; break; }
      case 'page': row(e.account, e.stream).records += e.records; break;
      case 'windows-added': row(e.account, e.stream).windowsTotal += e.windows; break;
      case 'window-done': row(e.account, e.stream).windowsDone++; break;
      case 'partition-done': row(e.account, e.stream).partitionsDone++; break;
      case 'partition-failed': row(e.account, e.stream).failed++; break;
      case 'rate-wait': waits.set(e.account, (waits.get(e.account) ?? 0) + e.ms); break;
      default: dirty = e.type !== 'run-start';
    }
  };
  return { sink, stop: () => { clearInterval(timer); dirty = true; draw(); } };
}

import type { SyncEvent, SyncEventSink } from '../../extract/syncEvent.js';
import { progressFrame } from './progressFrame.js';
import type { StreamProgress } from './progressFrame.js';

/**
 * A live display on a terminal that always fits it (see progressFrame: at most rows - 2 lines,
 * none wider than the terminal): totals, failures, and the slowest streams still running,
 * redrawn in place at most ten times a second and at least once a second. `stop()` draws the last frame and ends the display
 * for good, so nothing printed afterwards (the run's summary) is ever drawn over.
 *
 * @example
 * const progress = ttyProgress(process.stderr);
 * await runSync({ ...options, emit: progress.sink });
 * progress.stop();
 */
export function ttyProgress(out: NodeJS.WriteStream, now: () => number = Date.now): { sink: SyncEventSink; stop: () => void } {
  const streams = new Map<string, StreamProgress>();
  const started = now();
  let rateWaitMs = 0;
  let drawn = 0;
  let dirty = false;
  let stopped = false;
  const row = (account: string, stream: string): StreamProgress => {
    const key = `${account}/${stream}`;
    let r = streams.get(key);
    if (r === undefined) {
      r = { records: 0, windowsDone: 0, windowsTotal: 0, partitionsDone: 0, partitions: 0, failed: 0, lastFailure: '', startedAt: now() };
      streams.set(key, r);
    }
    return r;
  };
  let drawnAt = 0;
  const draw = () => {
    // Redrawn when something changed, and at least once a second so the clocks move while a
    // stream waits on a long query (the prices stream's hours, a big window) and sends no event.
    if (!dirty && now() - drawnAt < 1000) return;
    dirty = false;
    drawnAt = now();
    const lines = progressFrame({ streams, rateWaitMs, startedAt: started, now: now() }, out.rows || 24, out.columns || 80);
    // Back to the frame's first line, rewrite each line, and clear what a longer frame left below.
    let text = drawn > 0 ? `\x1b[${drawn}F` : '';
    text += `${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n\x1b[J`;
    out.write(text);
    drawn = lines.length;
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  const sink = (e: SyncEvent) => {
    if (stopped) return;
    dirty = true;
    switch (e.type) {
      case 'partition-start': { const r = row(e.account, e.stream); r.partitions++; r.windowsTotal += e.windows; break; }
      case 'page': row(e.account, e.stream).records += e.records; break;
      case 'windows-added': row(e.account, e.stream).windowsTotal += e.windows; break;
      case 'window-done': row(e.account, e.stream).windowsDone++; break;
      case 'partition-done': row(e.account, e.stream).partitionsDone++; break;
      case 'partition-failed': { const r = row(e.account, e.stream); r.failed++; r.lastFailure = `${e.code} ${e.message}`; break; }
      case 'rate-wait': rateWaitMs += e.ms; break;
      default: dirty = e.type !== 'run-start';
    }
  };
  const stop = () => {
    if (stopped) return;
    clearInterval(timer);
    dirty = true;
    draw();
    stopped = true;
  };
  return { sink, stop };
}

import type { SyncEvent, SyncEventSink } from '../../extract/syncEvent.js';

/**
 * One JSON object per event on a stream (stderr when not on a terminal), for log collectors.
 * Rate-limit waits are many and tiny, so they are summed per account and endpoint and written
 * once a second, or before the next other event.
 *
 * @example
 * const progress = jsonLinesProgress(process.stderr);
 * await runSync({ ...options, emit: progress.sink });
 * progress.stop();
 */
export function jsonLinesProgress(out: NodeJS.WritableStream): { sink: SyncEventSink; stop: () => void } {
  const waits = new Map<string, { ms: number; count: number }>();
  const write = (e: Record<string, unknown>) => out.write(`${JSON.stringify({ time: new Date().toISOString(), ...e })}\n`);
  const flush = () => {
    for (const [key, w] of waits) {
      const [account, endpoint] = key.split('\u0000');
      write({ type: 'rate-wait', account, endpoint, ms: Math.round(w.ms), count: w.count });
    }
    waits.clear();
  };
  const timer = setInterval(flush, 1000);
  timer.unref();
  const sink = (e: SyncEvent) => {
    if (e.type === 'rate-wait') {
      const key = `${e.account}\u0000${e.endpoint}`;
      const w = waits.get(key) ?? { ms: 0, count: 0 };
      w.ms += e.ms;
      w.count++;
      waits.set(key, w);
      return;
    }
    if (e.type === 'page' && e.records === 0) return;
    // Waits summed so far come first, so the lines stay in time order.
    flush();
    write(e);
  };
  return { sink, stop: () => { clearInterval(timer); flush(); } };
}

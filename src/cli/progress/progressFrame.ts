/** What the live display knows about one account's stream. */
export interface StreamProgress {
  records: number;
  windowsDone: number;
  windowsTotal: number;
  partitionsDone: number;
  partitions: number;
  failed: number;
  /** The latest failure's code and message. */
  lastFailure: string;
  /** When its first partition started (ms). */
  startedAt: number;
}

/** Everything a frame is drawn from. */
export interface ProgressState {
  /** Keyed "account/stream". */
  streams: ReadonlyMap<string, StreamProgress>;
  rateWaitMs: number;
  startedAt: number;
  now: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const progressOf = (p: StreamProgress) => (p.windowsTotal === 0 ? 0 : p.windowsDone / p.windowsTotal);

/**
 * The lines of one frame of the live display, at most `rows - 2` of them (so a frame never
 * scrolls the terminal and can always be redrawn in place) and each shorter than `columns` (so
 * none wraps): a totals line, then failed streams, then the streams still running, slowest
 * (least of their windows done) first, with "... more" lines when they do not all fit. Finished
 * streams are only counted: the summary after the run lists them.
 *
 * @example
 * progressFrame(state, 24, 100); // ['sync 00:12  4,210 records  partitions 40/120 done ...', '  main/marginRecords ...']
 */
export function progressFrame(state: ProgressState, rows: number, columns: number): string[] {
  const budget = Math.max(1, rows - 2);
  const width = Math.max(20, columns - 1);
  const all = [...state.streams.entries()];
  const sum = (f: (p: StreamProgress) => number) => all.reduce((n, [, p]) => n + f(p), 0);
  const failed = all.filter(([, p]) => p.failed > 0);
  const running = all.filter(([, p]) => p.failed === 0 && (p.partitions === 0 || p.partitionsDone < p.partitions))
    .sort(([ka, a], [kb, b]) => progressOf(a) - progressOf(b) || a.startedAt - b.startedAt || ka.localeCompare(kb));
  const lines = [
    `sync ${clock(state.now - state.startedAt)}  ${sum((p) => p.records).toLocaleString('en-US')} records  `
    + `partitions ${sum((p) => p.partitionsDone)}/${sum((p) => p.partitions)} done  windows ${sum((p) => p.windowsDone)}/${sum((p) => p.windowsTotal)}  `
    + `${running.length} streams running${failed.length ? `  ${failed.length} FAILED` : ''}${state.rateWaitMs ? `  rate waits ${seconds(state.rateWaitMs)}` : ''}`,
  ];
  let room = budget - 1;
  // Failures first, but never more than a third of the room, so the running streams stay visible.
  const failureRoom = Math.min(failed.length, running.length > 0 ? Math.max(1, Math.floor(room / 3)) : room);
  failed.slice(0, failed.length > failureRoom ? failureRoom - 1 : failureRoom).forEach(([key, p]) => {
    lines.push(`  FAILED ${key} (${p.failed}): ${p.lastFailure}`);
  });
  if (failed.length > failureRoom && failureRoom > 0) lines.push(`  ... and ${failed.length - failureRoom + 1} more failed streams (listed after the run)`);
  room = budget - lines.length;
  const shown = running.length > room ? Math.max(0, room - 1) : running.length;
  for (const [key, p] of running.slice(0, shown)) {
    lines.push(`  ${key.padEnd(36)} ${String(p.records).padStart(9)} records  windows ${p.windowsDone}/${p.windowsTotal}  ${clock(state.now - p.startedAt)}`);
  }
  if (running.length > shown && room > 0) lines.push(`  ... and ${running.length - shown} more running`);
  return lines.slice(0, budget).map((l) => (l.length > width ? `${l.slice(0, width - 1)}~` : l));
}

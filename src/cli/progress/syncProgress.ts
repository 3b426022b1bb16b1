import type { SyncEventSink } from '../../extract/syncEvent.js';
import { jsonLinesProgress } from './jsonLinesProgress.js';
import { ttyProgress } from './ttyProgress.js';

/**
 * The progress display for this process: a live table when stderr is a terminal, JSON lines on
 * stderr otherwise (cron, systemd, pipes).
 *
 * @example
 * const progress = syncProgress(); try { ... emit: progress.sink ... } finally { progress.stop(); }
 */
export function syncProgress(stream: NodeJS.WriteStream = process.stderr): { sink: SyncEventSink; stop: () => void } {
  return stream.isTTY ? ttyProgress(stream) : jsonLinesProgress(stream);
}

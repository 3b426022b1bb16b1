import { Logger } from 'graphile-worker';

/** One JSON line per worker event (job start, done, partial, failed, a dead peer freed), for log collectors. */
export interface WorkerLog {
  write(event: Record<string, unknown> & { type: string }): void;
}

/**
 * A WorkerLog writing JSON lines with a time stamp to a stream (stderr in the CLI).
 *
 * @example
 * const log = jsonWorkerLog(process.stderr); log.write({ type: 'worker-start', concurrency: 2 });
 */
export function jsonWorkerLog(out: NodeJS.WritableStream): WorkerLog {
  return { write: (e) => { out.write(`${JSON.stringify({ time: new Date().toISOString(), ...e })}\n`); } };
}

/**
 * A logger for the job engine that passes on only its warnings and errors (as JSON lines), so
 * stdout stays the command's own. `handedBack(jobId)`: jobs handed back at shutdown, whose
 * "Failed task" lines are not errors (the task logged `job-handed-back` at info already).
 *
 * @example
 * makeWorkerUtils({ pgPool: createPool({ url, name: 'enqueue-engine', max: 2 }), logger: engineLogger(jsonWorkerLog(process.stderr)) });
 */
export function engineLogger(log: WorkerLog, handedBack: (jobId: string) => boolean = () => false): Logger {
  return new Logger(() => (level, message, meta) => {
    const job = (meta as { job?: { id?: unknown } } | undefined)?.job;
    if (job !== undefined && handedBack(String(job.id))) return;
    if (level === 'error' || level === 'warning') log.write({ type: 'engine', level, message });
  });
}

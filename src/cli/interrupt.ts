/** What {@link whileInterruptible} hands the work it runs. */
export interface Interruptible {
  /** Aborted by the first SIGINT (Ctrl-C) or SIGTERM. */
  readonly signal: AbortSignal;
}

/** The work was stopped by a signal: which one, and the exit code a shell gives it (128 + its number). */
export class Interrupted extends Error {
  constructor(readonly signalName: 'SIGINT' | 'SIGTERM', cause: unknown) {
    super(`stopped by ${signalName}`, { cause });
  }

  get exitCode(): number {
    return this.signalName === 'SIGINT' ? 130 : 143;
  }
}

/**
 * Runs work that writes files with an AbortSignal that the first Ctrl-C or SIGTERM aborts, so the
 * work cancels its queries and takes its temporary files back before the process ends (without
 * this, Node's default for SIGINT ended a `report` at once and left `.ledger.csv.<pid>.tmp` files
 * in the folder). A second signal ends the process at once. Work that finishes although a signal
 * came (it was past its last query) returns as usual; work that fails after one throws
 * {@link Interrupted}.
 *
 * @example
 * const result = await whileInterruptible(({ signal }) => runReports({ ...options, signal }));
 */
export async function whileInterruptible<T>(work: (i: Interruptible) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let received: 'SIGINT' | 'SIGTERM' | undefined;
  const on = (name: 'SIGINT' | 'SIGTERM') => () => {
    if (received !== undefined) process.exit(name === 'SIGINT' ? 130 : 143);
    received = name;
    controller.abort(new Error(`stopped by ${name}`));
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await work({ signal: controller.signal });
  } catch (err) {
    if (received !== undefined) throw new Interrupted(received, err);
    throw err;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

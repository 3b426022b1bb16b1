/** What {@link whileInterruptible} hands the work it runs. */
export interface Interruptible {
  /** Aborted by the first SIGINT (Ctrl-C) or SIGTERM. */
  readonly signal: AbortSignal;
}

type StopSignal = 'SIGINT' | 'SIGTERM';

/** The exit code a shell gives a program a signal ended: 128 + the signal's number. */
const exitCodeOf = (name: StopSignal): number => (name === 'SIGINT' ? 130 : 143);

/** The work was stopped by a signal: which one, and its exit code. */
export class Interrupted extends Error {
  readonly exitCode: number;

  constructor(readonly signalName: StopSignal, cause: unknown) {
    super(`stopped by ${signalName}`, { cause });
    this.exitCode = exitCodeOf(signalName);
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
  let received: StopSignal | undefined;
  const on = (name: StopSignal) => () => {
    if (received !== undefined) process.exit(exitCodeOf(name));
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

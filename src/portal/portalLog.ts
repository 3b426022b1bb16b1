/** Writes one of the portal's log lines: an event type and its fields (never a secret). */
export type PortalLog = (type: string, fields?: Record<string, unknown>) => void;

/**
 * The portal's one log helper: every notable event (a refused request, a failed sign-in, a
 * download queued, an error) is one JSON line `{ type, at, ...fields }`, `at` from the portal's
 * clock, written by `write` (stderr by default, one line per call) for log collectors.
 *
 * @example
 * const log = portalLog((line) => process.stderr.write(`${line}\n`), Date.now);
 * log('portal-login-failed', { user: 'anna', address: '127.0.0.1' });
 */
export function portalLog(write: (line: string) => void, now: () => number): PortalLog {
  return (type, fields = {}) => write(JSON.stringify({ type, at: new Date(now()).toISOString(), ...fields }));
}

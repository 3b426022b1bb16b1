/**
 * One status line on a terminal for a long command that is not a sync (gains, import transactions): the command's
 * name, the time since it started and what it says it is doing, redrawn in place at most five
 * times a second and at least once a second (so the clock moves while a long query runs), cut to
 * the terminal's width. Off a terminal (a scheduler, a pipe, CI) it writes nothing: the command's
 * own lines stay the whole output. `stop()` clears the line for good, so what the command prints
 * next starts on a clean line.
 *
 * @example
 * const progress = lineProgress(process.stderr, 'gains');
 * progress.update('reading the valued ledger');
 * progress.stop();
 */
export function lineProgress(out: NodeJS.WriteStream, name: string, now: () => number = Date.now): { update: (text: string) => void; stop: () => void } {
  if (!out.isTTY) return { update: () => {}, stop: () => {} };
  const started = now();
  let text = '';
  let drawnAt = -Infinity;
  let drawnText = '';
  let stopped = false;
  const clock = () => {
    const s = Math.floor((now() - started) / 1000);
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };
  const draw = () => {
    if (stopped || text === '') return;
    const t = now();
    if (t - drawnAt < 200) return;
    const line = `${name} ${clock()}  ${text}`.slice(0, Math.max(10, (out.columns || 80) - 1));
    if (line === drawnText && t - drawnAt < 1000) return;
    out.write(`\r\x1b[2K${line}`);
    drawnAt = t;
    drawnText = line;
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    update: (next: string) => { text = next; draw(); },
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (drawnText !== '') out.write('\r\x1b[2K');
    },
  };
}

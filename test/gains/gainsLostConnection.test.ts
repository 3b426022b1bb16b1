import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSync } from '../../src/extract/runSync.js';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { testSyncOptions } from '../support/testSync.js';
import { startCli } from '../support/runCli.js';
import type { CliResult } from '../support/runCli.js';
import { tcpProxy } from '../support/tcpProxy.js';
import type { TcpProxy } from '../support/tcpProxy.js';

// Issue 23 item 5: "one `gains` run that lost its connection ("too many clients") never exited".
// Its reader was connected before the writer, outside the try whose finally closes both: a
// refused writer left the reader's socket open, and the process printed its error and stayed.
const env = sandboxWithDatabase();
let scratch: string;
let year: string;
beforeAll(async () => {
  const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
  expect(result.errors).toEqual([]);
  year = String(new Date(env.sandbox.world.now()).getUTCFullYear() - 1);
  scratch = await mkdtemp(path.join(tmpdir(), 'tl-lost-connection-'));
}, 300_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

// Runs a command through a proxy; one still alive long after its database went away is killed and
// reported as a hang (the bound is for a hang, not a speed: a clean run takes a few seconds).
async function through(proxy: TcpProxy, args: (out: string) => string[], label: string): Promise<CliResult & { hung: boolean }> {
  const { child, done } = startCli(args(path.join(scratch, label)), { DATABASE_URL: proxy.url });
  let hung = false;
  const timer = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, 90_000);
  const r = await done;
  clearTimeout(timer);
  await proxy.close();
  return { ...r, hung };
}

const commands: [string, (out: string) => string[]][] = [
  ['gains', (out) => ['gains', '--year', year, '--rules', 'us', '--fiat', 'USD', '--tz', 'UTC', '--out', out]],
  ['report', (out) => ['report', '--year', year, '--tz', 'UTC', '--format', 'koinly', '--out', out]],
];

describe('a command that loses its database connection exits with a database error (exit 4), never hangs', () => {
  for (const [name, args] of commands) {
    it(`tradeledger ${name}: each of its connections refused in turn, and every connection cut at byte counts through the run`, { timeout: 900_000 }, async () => {
      const whole = await tcpProxy(env.fresh.url);
      const clean = await through(whole, args, `${name}-clean`);
      const total = whole.bytesToServer();
      const connections = whole.accepted();
      expect(clean.code, clean.stderr).toBe(0);
      expect(connections).toBeGreaterThan(1);
      const failures: string[] = [];
      const check = (what: string, r: CliResult & { hung: boolean }) => {
        if (r.hung) failures.push(`${what}: still running after its database went away`);
        else if (r.code !== 4) failures.push(`${what}: exit ${r.code}, stderr ${JSON.stringify(r.stderr)}`);
        else if (!/PostgreSQL/.test(r.stderr) || /This is a bug|\n\s+at /.test(r.stderr)) failures.push(`${what}: unclear error ${JSON.stringify(r.stderr)}`);
      };
      // One connection refused (as a server at max_connections answers): the others must be closed.
      for (let n = 1; n <= connections; n++) {
        check(`connection ${n} of ${connections} refused`, await through(await tcpProxy(env.fresh.url, { refuseConnections: [n] }), args, `${name}-refused-${n}`));
      }
      // Cut at a byte count, not at a moment: the same point in the run however fast it goes.
      for (const fraction of [0.3, 0.6, 0.9, 0.97]) {
        const at = Math.floor(total * fraction);
        check(`cut after ${at} of ${total} bytes`, await through(await tcpProxy(env.fresh.url, { cutAfterBytesToServer: at }), args, `${name}-cut-${fraction}`));
      }
      expect(failures).toEqual([]);
    });
  }
});

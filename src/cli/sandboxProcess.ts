import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TradeledgerError } from '../errors.js';
import type { AccountLine } from '../sandbox/server/describeAccounts.js';

/** A sandbox running as its own process (`tradeledger sandbox`), as the demo uses it. */
export interface SandboxProcess {
  readonly baseUrl: string;
  readonly accounts: AccountLine[];
  /** The sandbox's process id (not this process's). */
  readonly pid: number;
  /** Stops it and waits until it has exited. */
  close(): Promise<void>;
}

export interface SandboxProcessOptions {
  /** As given on the command line; the sandbox command checks it. */
  seed: string;
  scale: string;
  rateLimit: boolean;
}

const bin = fileURLToPath(new URL('../../bin/tradeledger.js', import.meta.url));

/**
 * Starts `tradeledger sandbox` as a child process and waits for its first stdout line
 * (`{baseUrl, accounts}`). The demo runs the sandbox apart so that its work (generating the
 * world, answering hundreds of requests a second, building candles) never runs on the event loop
 * that draws the live display: in the same process the display froze for seconds at a time.
 * The child stops when this process closes its stdin, so it never outlives the demo.
 *
 * @example
 * const sandbox = await startSandboxProcess({ seed: '1', scale: 'tiny', rateLimit: false });
 * try { ...sync against sandbox.baseUrl... } finally { await sandbox.close(); }
 */
export function startSandboxProcess(o: SandboxProcessOptions): Promise<SandboxProcess> {
  const args = [bin, 'sandbox', '--port', '0', '--seed', String(o.seed), '--scale', o.scale, '--stop-on-stdin-end', ...(o.rateLimit ? [] : ['--no-rate-limit'])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr = (stderr + d).slice(-8_000); });
  child.stdin.on('error', () => {});
  const close = async () => {
    child.stdin.end();
    const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    hard.unref();
    await exited;
    clearTimeout(hard);
    process.off('exit', killOnExit);
  };
  return new Promise<SandboxProcess>((resolve, reject) => {
    let out = '';
    const onData = (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.stdout.resume(); // nothing more is read, and a full pipe must never block the sandbox
      try {
        const first = JSON.parse(out.slice(0, nl)) as { baseUrl: string; accounts: AccountLine[] };
        resolve({ baseUrl: first.baseUrl, accounts: first.accounts, pid: child.pid!, close });
      } catch (err) {
        void close();
        reject(new TradeledgerError('SANDBOX_START', `the sandbox process printed no {baseUrl, accounts} line: ${out.slice(0, 200)}`, { kind: 'internal', cause: err }));
      }
    };
    const onExit = (code: number | null) => {
      process.off('exit', killOnExit);
      // Its own message (`tradeledger: ...` and `  fix: ...`), e.g. a bad --scale.
      const said = /tradeledger: (.*)(?:\n {2}fix: (.*))?/.exec(stderr);
      reject(new TradeledgerError('SANDBOX_START', `the sandbox did not start: ${said?.[1] ?? `it exited with code ${code}`}`, {
        kind: code === 2 ? 'config' : 'internal', ...(said?.[2] ? { hint: said[2] } : {}),
      }));
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
}

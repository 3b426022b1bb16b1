import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { TradeledgerError } from '../errors.js';
import { faultSyntax } from '../sandbox/server/parseFaultSpec.js';
import { writeTruth } from '../sandbox/server/writeTruth.js';

/**
 * `tradeledger sandbox`: runs the local twin of the exchange until Ctrl-C / SIGTERM. Its first
 * stdout line (and nothing before it) is `{"baseUrl", "accounts": [...]}`; logs go to stderr.
 *
 * @example
 * tradeledger sandbox --port 0 --seed 1 --scale tiny --faults 5xx=0.1
 */
export function sandboxCommand(_setExit: (code: number) => void): Command {
  return new Command('sandbox')
    .description('Run a local twin of the exchange V2 API (signed, rate-limited, paged, with fault injection). Prints one JSON line {baseUrl, accounts} on stdout, then serves until Ctrl-C.')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data and of the faults', '1')
    .option('--scale <scale>', 'data size: tiny, small, medium, large or xl, and/or resource=count terms (e.g. tiny,spotOrders=200000)', 'small')
    .option('--accounts <n>', 'add N client accounts (client-001, ...) playing a large firm: each its own UID, key and data, deterministic from the seed', '0')
    .option('--no-rate-limit', 'turn the rate limits off (per UID and endpoint, and the overall 6000 requests/minute per IP)')
    .addOption(new Option('--faults <spec>', `inject faults: ${faultSyntax}`))
    .option('--truth <file>', 'write the ground truth (every record the history endpoints can return) as JSON lines to FILE before serving')
    .option('--now <ms>', 'anchor time of the generated history, Unix ms (default: now)')
    .option('--tax-span-days <days>', 'maximum span of E5 and the tax endpoints, in days', '30')
    .option('--log-requests', 'log one line per request to stderr')
    // For a parent process that runs the sandbox as its child (the demo): stop when it closes our stdin.
    .addOption(new Option('--stop-on-stdin-end', 'stop when stdin ends (a parent process went away)').hideHelp())
    .addHelpText('after', `
Faults (--faults, also POST /_sandbox/faults {"spec": "..."} at runtime):
  5xx           answer 500/503 with an error envelope, or 502/504 with an HTML page
  429           answer HTTP 429 {"code":"429","msg":"Too Many Requests"}, in bursts: the next
                0-2 retries of the same request get 429 too
  drop          send half the body, then destroy the connection
  malformed     answer 200 with a truncated, unparsable JSON body
  slow=R:MS     delay the answer by MS milliseconds (default 1000)
  unknown-field add an undocumented field "sandboxNewField" to every record
  Faults are deterministic from --seed: the n-th identical request meets the same fault in
  every run, so retries can succeed and drills repeat. They never touch /_sandbox/* routes.

Rate limits: a token bucket per (UID, endpoint) at the endpoint table's rate, holding at most
one second of tokens (no burst above the per-second rate); all keys of a UID share it.

Test controls (unsigned, loopback only): GET /_sandbox/truth | /_sandbox/stats | /_sandbox/accounts,
POST /_sandbox/advance {ms} | /_sandbox/settle {uid, resource, id} | /_sandbox/faults {spec} |
/_sandbox/clock {skewMs}.`)
    .action(async (opts: { port: string; host: string; seed: string; scale: string; accounts: string; rateLimit: boolean; faults?: string; truth?: string; now?: string; taxSpanDays: string; logRequests?: boolean; stopOnStdinEnd?: boolean }) => {
      // Loaded on demand so other commands never pay for (or depend on) the sandbox's data code.
      const { startSandbox } = await import('../sandbox/startSandbox.js');
      const sandbox = await startSandbox({
        port: whole('--port', opts.port, 65_535), host: opts.host, seed: whole('--seed', opts.seed, Number.MAX_SAFE_INTEGER), scale: opts.scale,
        accounts: whole('--accounts', opts.accounts, 10_000),
        rateLimit: opts.rateLimit, faults: opts.faults ?? '', logRequests: opts.logRequests ?? false,
        taxSpanDays: whole('--tax-span-days', opts.taxSpanDays, 3660),
        ...(opts.now === undefined ? {} : { now: whole('--now', opts.now, Number.MAX_SAFE_INTEGER) }),
      });
      try {
        if (opts.truth) {
          const out = createWriteStream(opts.truth);
          const count = await writeTruth(sandbox.world, out);
          out.end();
          await once(out, 'finish');
          process.stderr.write(`sandbox: wrote ${count} ground-truth records to ${opts.truth}\n`);
        }
        process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, accounts: sandbox.accounts })}\n`);
        process.stderr.write(`sandbox: serving ${sandbox.baseUrl} (seed ${opts.seed}, scale ${opts.scale}, rate limits ${opts.rateLimit ? 'on' : 'off'}${opts.faults ? `, faults ${opts.faults}` : ''}); Ctrl-C stops it\n`);
        await untilSignal(opts.stopOnStdinEnd ?? false);
        process.stderr.write('sandbox: stopping\n');
      } finally {
        await sandbox.close();
      }
    });
}

function whole(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new TradeledgerError('BAD_FLAG', `${flag} must be a whole number from 0 to ${max} (got "${text}")`, { kind: 'config', hint: `Pass ${flag} with digits only.` });
  }
  return Number(text);
}

function untilSignal(orStdinEnd: boolean): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (orStdinEnd) process.stdin.off('end', stop).off('close', stop).pause();
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (orStdinEnd) process.stdin.on('end', stop).on('close', stop).resume();
  });
}

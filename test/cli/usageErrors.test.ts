import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandEntries, main } from '../../src/cli/main.js';

// README, "Every command ends with one of these exit codes": 2 is "bad flags or config file", 1
// "internal error (a bug)". A scheduler that runs `tradeledger sync --cofnig x` must be told the
// former. commander's own handling of an unknown option ends the process with 1 unless the command
// throws instead (exitOverride), which `status`, `sync`, `demo`, `sandbox`, `worker` and `enqueue`
// did not: they said "a bug".

// Every command path: `sync`, `import transactions`, `db url`, ...
async function commandPaths(): Promise<string[][]> {
  const paths: string[][] = [];
  const walk = (command: Command, path: string[]) => {
    paths.push(path);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  for (const entry of commandEntries) walk((await entry.load())(() => {}), [entry.name]);
  return paths;
}

// Runs main() in this process with stderr captured: a command that calls process.exit fails the test.
async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => { err.push(String(chunk)); return true; }) as typeof process.stderr.write;
  try {
    return { code: await main(argv), stderr: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}

describe('usage errors', () => {
  it('an unknown option ends every command and subcommand with exit 2, a usage message and where the usage is', async () => {
    const paths = await commandPaths();
    expect(paths.length).toBeGreaterThan(commandEntries.length); // subcommands were found too
    for (const path of paths) {
      const { code, stderr } = await run([...path, '--no-such-flag']);
      // commander names the unknown option, or first a required option that is missing (gains --year).
      const usage = /error: (unknown option '--no-such-flag'|required option '[^']+' not specified|missing required argument)/.test(stderr);
      const pointer = stderr.includes('(run with --help for usage)');
      expect({ path: path.join(' '), code, usage, pointer }).toEqual({ path: path.join(' '), code: 2, usage: true, pointer: true });
    }
  });

  it('an unknown command is a usage error too, and --help is not an error', async () => {
    expect((await run(['synk'])).code).toBe(2);
    const out = process.stdout.write.bind(process.stdout);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      expect(await main(['sync', '--help'])).toBe(0);
    } finally {
      process.stdout.write = out;
    }
  });
});

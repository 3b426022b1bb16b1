import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandEntries, main } from '../../src/cli/main.js';

// `tradeledger --help` lists the commands from main.ts's table, without loading them; the table
// must say exactly what each command says of itself.
describe('the command table behind --help', () => {
  it('has each command\'s own help term and description', async () => {
    const help = new Help();
    for (const entry of commandEntries) {
      const command = (await entry.load())(() => {});
      expect({ name: command.name(), term: help.subcommandTerm(command), description: command.description() }, entry.name)
        .toEqual({ name: entry.name, term: entry.term, description: entry.description });
    }
  });

  it('prints the same help as the loaded commands do', async () => {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => { out.push(String(chunk)); return true; }) as typeof process.stdout.write;
    try {
      expect(await main(['--help'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const text = out.join('');
    for (const entry of commandEntries) expect(text).toMatch(new RegExp(`^  ${entry.term.replace(/[[\]]/g, '\\$&')} +\\S`, 'm'));
    expect(text).toMatch(/^ {2}help \[command\] +display help for command$/m);
  });
});

import { TradeledgerError } from '../errors.js';

function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (err?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (err) reject(err); else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new TradeledgerError('PORTAL_NO_PASSWORD', 'cancelled', { kind: 'config' }));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/**
 * Reads a new password: at a terminal, asked twice without echo; otherwise the first line of
 * stdin (`printf '%s\n' "$PW" | tradeledger users add anna`). Never from a flag, so it stays out
 * of shell history and `ps`.
 *
 * @example
 * const password = await readNewPassword('anna');
 */
export async function readNewPassword(username: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const password = await firstLineOfStdin();
    if (password === '') {
      throw new TradeledgerError('PORTAL_NO_PASSWORD', 'no password on stdin', {
        kind: 'config', hint: 'Run it at a terminal to be asked, or pipe the password in as the first line of stdin.',
      });
    }
    return password;
  }
  const first = await promptHidden(`New password for ${username}: `);
  const second = await promptHidden('Repeat it: ');
  if (first !== second) throw new TradeledgerError('PORTAL_NO_PASSWORD', 'the two passwords differ', { kind: 'config', hint: 'Run the command again.' });
  return first;
}

import { Command, Option } from 'commander';
import type pg from 'pg';
import { createPool } from '../db/pools.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { migrate } from '../db/migrate.js';
import { addUser, listUsers, removeUser, setGrants, setPassword } from '../portal/portalUsers.js';
import { portalRoles } from '../portal/portalUser.js';
import type { PortalRole } from '../portal/portalUser.js';
import { readNewPassword } from '../portal/readNewPassword.js';

async function withPool<T>(run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
  await migrate(url);
  const pool = createPool({ url, name: 'users', max: 2 });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * `tradeledger users add|list|remove|passwd|grant|revoke`: the portal's users. Passwords are read
 * from a prompt or stdin, never from a flag.
 *
 * @example
 * tradeledger users add anna --role accountant --account 1000000001
 */
export function usersCommand(_setExit: (code: number) => void): Command {
  const users = new Command('users').description('Manage who may sign in to the portal (tradeledger serve).').exitOverride();
  users.command('add <username>').exitOverride()
    .description('add a user; the password is asked for (or read from the first line of stdin)')
    .addOption(new Option('--role <role>', 'admin sees every account; accountant only granted ones').choices(portalRoles).default('accountant'))
    .option('--account <uid>', 'an account the accountant may see (repeatable)', collect, [] as string[])
    .action(async (username: string, flags: { role: PortalRole; account: string[] }) => {
      const password = await readNewPassword(username);
      await withPool((pool) => addUser(pool, { username, password, role: flags.role, accounts: flags.account }));
      process.stdout.write(`added ${flags.role} ${username}${flags.account.length ? ` (accounts ${flags.account.join(', ')})` : ''}\n`);
    });
  users.command('list').exitOverride().description('list users, roles, granted accounts and open sessions').action(async () => {
    const list = await withPool((pool) => listUsers(pool, Date.now()));
    if (list.length === 0) { process.stdout.write('no portal users yet: tradeledger users add <name> --role admin\n'); return; }
    process.stdout.write(`${'user'.padEnd(24)} ${'role'.padEnd(10)} ${'sessions'.padStart(8)}  accounts\n`);
    for (const u of list) {
      process.stdout.write(`${u.username.padEnd(24)} ${u.role.padEnd(10)} ${String(u.activeSessions).padStart(8)}  ${u.role === 'admin' ? '(all)' : u.accounts.join(', ') || '(none)'}\n`);
    }
  });
  users.command('remove <username>').exitOverride().description('remove a user and end their sessions').action(async (username: string) => {
    await withPool((pool) => removeUser(pool, username));
    process.stdout.write(`removed ${username}\n`);
  });
  users.command('passwd <username>').exitOverride().description('set a new password (asked for, or from stdin) and end the user\'s sessions').action(async (username: string) => {
    const password = await readNewPassword(username);
    await withPool((pool) => setPassword(pool, username, password, Date.now()));
    process.stdout.write(`password changed for ${username}; their sessions were signed out\n`);
  });
  users.command('grant <username> <uid...>').exitOverride().description('let an accountant see more accounts').action(async (username: string, uids: string[]) => {
    const r = await withPool((pool) => setGrants(pool, username, uids, true));
    if (r.changed.length > 0) process.stdout.write(`granted ${r.changed.join(', ')} to ${username}\n`);
    if (r.unchanged.length > 0) process.stdout.write(`${username} already had ${r.unchanged.join(', ')}; nothing changed for ${r.unchanged.length === 1 ? 'it' : 'them'}\n`);
  });
  users.command('revoke <username> <uid...>').exitOverride().description('take accounts away from an accountant').action(async (username: string, uids: string[]) => {
    const r = await withPool((pool) => setGrants(pool, username, uids, false));
    if (r.changed.length > 0) process.stdout.write(`revoked ${r.changed.join(', ')} from ${username}\n`);
    if (r.unchanged.length > 0) process.stdout.write(`${username} had no grant on ${r.unchanged.join(', ')}; nothing changed for ${r.unchanged.length === 1 ? 'it' : 'them'}\n`);
  });
  return users;
}

import type pg from 'pg';

const done = new WeakSet<object>();

/**
 * Turns off synchronous commit for a pooled session the first time the sync loads a page on it
 * (the pool hands back the same client object, so it is set once per connection).
 *
 * Why it is safe: a page's rows and its checkpoint commit in one transaction, so a server crash
 * that loses the last few asynchronous commits loses rows and checkpoint together, and the next
 * run re-reads those pages from the older checkpoint. A client kill -9 loses nothing: the server
 * has the commit whether or not it was flushed before the client died. What it saves is the WAL
 * flush wait per page. (Set inside a transaction that then rolls back, the setting reverts and
 * that one connection commits synchronously again: slower, never less safe.)
 *
 * @example
 * const client = await pool.connect();
 * await asyncCommit(client);
 */
export async function asyncCommit(client: Pick<pg.ClientBase, 'query'>): Promise<void> {
  if (done.has(client)) return;
  await client.query('SET synchronous_commit = off');
  done.add(client);
}

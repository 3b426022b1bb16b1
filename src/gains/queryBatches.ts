import pg from 'pg';

// Every value as PostgreSQL's text (amounts keep every digit; nothing becomes a JS number).
const asText: pg.CustomTypesConfig = { getTypeParser: (() => (value: string) => value) as pg.CustomTypesConfig['getTypeParser'] };

/**
 * Runs one query and hands its rows (arrays of text or null, in column order) to `handle` a batch
 * at a time, in order, one batch at a time. The server streams the rows in one pass (no cursor,
 * no round trip per batch); while a batch is being handled the socket is paused, so TCP holds the
 * server back and memory stays at about one batch however many rows there are. A failing
 * `handle` lets the query drain and rejects with its error.
 *
 * @example
 * await queryBatches(client, { text: 'SELECT a, b FROM t ORDER BY a', values: [] }, 5000, async (rows) => { ... });
 */
export async function queryBatches(client: pg.Client, query: { text: string; values: unknown[] }, batchSize: number,
  handle: (rows: (string | null)[][]) => Promise<void>): Promise<void> {
  const socket = client.connection.stream;
  await new Promise<void>((resolve, reject) => {
    let batch: (string | null)[][] = [];
    let chain: Promise<void> = Promise.resolve();
    let waiting = 0;
    let paused = false;
    let failed: { error: unknown } | undefined;
    const fail = (error: unknown) => {
      failed ??= { error };
      if (paused) { paused = false; socket.resume(); }
    };
    const send = (rows: (string | null)[][]) => {
      waiting++;
      if (!paused) { paused = true; socket.pause(); }
      chain = chain.then(async () => {
        if (failed) return;
        try {
          await handle(rows);
        } catch (error) {
          fail(error);
          return;
        }
        if (--waiting === 0 && paused) { paused = false; socket.resume(); }
      });
    };
    const q = new pg.Query({ text: query.text, values: query.values, rowMode: 'array', types: asText } as pg.QueryArrayConfig);
    q.on('row', (row: (string | null)[]) => {
      if (failed) return;
      batch.push(row);
      if (batch.length >= batchSize) { const rows = batch; batch = []; send(rows); }
    });
    q.on('end', () => {
      if (batch.length > 0 && !failed) send(batch);
      batch = [];
      void chain.then(() => (failed ? reject(failed.error) : resolve()));
    });
    q.on('error', (error: Error) => {
      fail(error);
      void chain.then(() => reject(failed!.error));
    });
    client.query(q);
  });
}

/**
 * Runs queries that each give a part of one ordered result (slices of time, say) and hands all
 * their rows to `handle` as {@link queryBatches} does, in the queries' order, as if they were one
 * query: a query's rows are handled only once every row of the one before has been. The queries
 * take turns on the clients (two clients: one computes the next slice while the last is handled),
 * and a client's next query is sent only once the one it ran before has been handled, so the
 * server is never more than one slice ahead and memory holds about one batch per client. The
 * clients must read one snapshot (pg_export_snapshot) for the parts to be one result. A failure
 * stops the queries not yet sent and rejects with the first failure in the queries' order.
 *
 * @example
 * await queryBatchesInTurn([a, b], [q2024, q2025], 5000, async (rows) => { ... });
 */
export async function queryBatchesInTurn(clients: readonly pg.Client[], queries: readonly { text: string; values: unknown[] }[], batchSize: number,
  handle: (rows: (string | null)[][]) => Promise<void>): Promise<void> {
  const runs: Promise<void>[] = [];
  // done[i]: every row of queries 0..i handled (a query with no rows is done when it ends, but
  // only after the ones before it).
  const done: Promise<void>[] = [];
  let stopped = false;
  for (let i = 0; i < queries.length; i++) {
    // The client's last query (i - clients.length) handled: the one slice of read-ahead, and a
    // queue of one query per client.
    if (i >= clients.length) await done[i - clients.length]!.catch(() => {});
    if (stopped) break;
    const before = done[i - 1];
    const run = queryBatches(clients[i % clients.length]!, queries[i]!, batchSize, async (rows) => {
      if (before) await before;
      await handle(rows);
    });
    run.catch(() => { stopped = true; });
    runs.push(run);
    const all = before ? Promise.all([before, run]).then(() => {}) : run;
    all.catch(() => {});
    done.push(all);
  }
  const settled = await Promise.allSettled(runs);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

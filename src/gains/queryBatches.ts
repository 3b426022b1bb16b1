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

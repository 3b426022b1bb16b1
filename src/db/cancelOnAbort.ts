import net from 'node:net';
import type pg from 'pg';

// The fields pg keeps once a client is connected: the backend's pid and the key that lets another
// socket cancel its statement (PostgreSQL's CancelRequest), and the socket itself.
interface ClientInternals {
  host?: string;
  port?: number;
  processID?: number | null;
  secretKey?: number | null;
  connection?: { stream?: { destroy(): void } };
}

/**
 * Stops a client's work at once when `signal` aborts: sends PostgreSQL's CancelRequest for its
 * backend (what psql's Ctrl-C sends; it needs no free connection slot and no password), then
 * closes its socket, so the statement stops on the server (a sort or a lock wait included) and
 * the pending query fails on this side. Returns a function that stops listening (call it in
 * `finally`).
 *
 * @example
 * const detach = cancelOnAbort([client], signal); try { await client.query(sql); } finally { detach(); await client.end(); }
 */
export function cancelOnAbort(clients: pg.Client[], signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  const onAbort = () => { for (const c of clients) cancelNow(c); };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

function cancelNow(client: pg.Client): void {
  const c = client as unknown as ClientInternals;
  if (c.processID && c.secretKey !== undefined && c.secretKey !== null) {
    const request = Buffer.alloc(16);
    request.writeInt32BE(16, 0);
    request.writeInt32BE(80877102, 4); // the CancelRequest code (PostgreSQL protocol, section 55.2.7)
    request.writeInt32BE(c.processID, 8);
    request.writeInt32BE(c.secretKey, 12);
    const host = c.host ?? 'localhost';
    const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${c.port ?? 5432}`) : net.connect(c.port ?? 5432, host);
    socket.on('error', () => {}); // best effort: the socket below is closed either way
    socket.on('connect', () => socket.end(request));
  }
  c.connection?.stream?.destroy();
}

import { createServer } from 'node:net';

/**
 * Whether something already listens on a TCP port of 127.0.0.1, tried by binding it briefly.
 *
 * @example
 * if (await portInUse(54329)) console.error('54329 is taken');
 */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolvePromise(err.code === 'EADDRINUSE' || err.code === 'EACCES'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolvePromise(false)));
  });
}

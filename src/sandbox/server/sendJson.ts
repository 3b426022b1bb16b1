import type { ServerResponse } from 'node:http';

/**
 * Writes a JSON (or other) text answer with an exact Content-Length, so keep-alive works.
 *
 * @example
 * sendJson(res, 200, JSON.stringify(envelope));
 */
export function sendJson(res: ServerResponse, status: number, text: string, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The error envelope every failure uses: `{code, msg, requestTime, data: null}`. */
export function errorBody(code: string, msg: string, requestTime: number): string {
  return JSON.stringify({ code, msg, requestTime, data: null });
}

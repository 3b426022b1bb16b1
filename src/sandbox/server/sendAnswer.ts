import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '../../api/errorCodes.js';
import type { FaultDecision } from './FaultInjector.js';
import { errorBody, sendJson } from './sendJson.js';

/**
 * Sends a success envelope, or spoils it as the fault decision says: `drop` promises the whole
 * body, sends half and destroys the connection; `malformed` sends a truncated JSON text.
 *
 * @example
 * sendAnswer(req, res, fault, JSON.stringify(envelope));
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, fault: FaultDecision, text: string): void {
  if (fault.failure === 'drop') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
    return;
  }
  if (fault.failure === 'malformed') return sendJson(res, 200, text.slice(0, Math.max(1, Math.floor(text.length * 0.6))));
  sendJson(res, 200, text);
}

/**
 * An injected 5xx. Gateways answer 502/504 with an HTML page, the service itself 500/503 with an
 * error envelope, so a client must cope with both.
 *
 * @example
 * sendServerError(res, 502, Date.now());
 */
export function sendServerError(res: ServerResponse, status: number, now: number): void {
  if (status === 502 || status === 504) {
    return sendJson(res, status, `<html><body><h1>${status} ${status === 502 ? 'Bad Gateway' : 'Gateway Time-out'}</h1></body></html>`, 'text/html');
  }
  sendJson(res, status, errorBody('45001', errorMessage('45001'), now));
}

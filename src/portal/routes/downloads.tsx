import { createHash } from 'node:crypto';
import { Transform, pipeline } from 'node:stream';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { auditDownload } from '../auditDownload.js';
import type { DownloadSubject } from '../auditDownload.js';
import type { DownloadRun, PreparedDownload } from '../reportDownload.js';
import { configErrorPage, errorPage } from './shared.js';
import type { Env, PortalDeps } from './shared.js';

/** What a download refused for a full queue asks the browser to wait, in seconds. */
export const downloadRetryAfterSeconds = 15;

/** How the report and gains routes send a download. */
export interface Downloads {
  /**
   * Runs one download in a slot of the shared pool (downloadSlots.ts) and sends it, with its
   * audit row. The browser going away (before the first byte, while it waits for a slot, or
   * mid-file) aborts it at once: its queries are cancelled on the server and its temporary folder
   * removed; then the slot is free. A full queue is a 503 with Retry-After.
   */
  inSlot(c: Context<Env>, prepare: (run: DownloadRun) => Promise<PreparedDownload>, subject: () => DownloadSubject, file: (prepared: PreparedDownload) => string): Promise<Response>;
  /**
   * The answer to a GET of a download address. Downloads run queries, write temporary files and
   * an audit row (gains also a run in gains_*): POST only, with the CSRF token, so a link or an
   * <img> on another page cannot start one.
   */
  postOnly(c: Context<Env>): Response | Promise<Response>;
}

/**
 * The portal's downloads over its slots, scratch folder, pool (for the audit), clock and log.
 *
 * @example
 * const { inSlot, postOnly } = downloads(deps);
 * app.get('/download/file', postOnly);
 */
export function downloads(deps: PortalDeps): Downloads {
  const { pool, now, log, slots, scratchDir } = deps;

  // Sends a prepared download and writes its audit row (bytes and SHA-256 as they went out).
  const send = (c: Context<Env>, prepared: PreparedDownload, subject: DownloadSubject, file: string, controller: AbortController, release: () => void) => {
    const hash = createHash('sha256');
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) { hash.update(chunk); bytes += chunk.length; done(null, chunk); },
    });
    const { user } = c.get('session');
    const address = c.get('address');
    // Written straight to Node's response: a year's file goes out at the writer's pace without a
    // detour through web streams (measured slower on this 2-core machine).
    const outgoing = c.env.outgoing;
    outgoing.writeHead(200, {
      'Content-Type': prepared.contentType,
      'Content-Disposition': `attachment; filename="${prepared.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      ...prepared.headers,
    });
    pipeline(prepared.stream, counter, outgoing, (err) => {
      // A download that did not go out whole stops its writer now, not when the query ends.
      if (err) controller.abort(err);
      void (async () => {
        const sent = hash.digest('hex');
        // Complete: every byte went out and, for a CSV, they hash to what the runner wrote.
        const written = await prepared.written.then((w) => w, () => undefined);
        const complete = !err && written !== undefined && (written.sha256 === undefined || written.sha256 === sent);
        await auditDownload(pool, {
          nowMs: now(), user, address, request: subject, file, bytes, sha256: sent, complete,
        });
      })().catch((e: unknown) => log('portal-audit-failed', { error: e instanceof Error ? e.message : String(e) }))
        .finally(() => { void prepared.remove().finally(release); });
    });
    return RESPONSE_ALREADY_SENT;
  };

  const inSlot: Downloads['inSlot'] = async (c, prepare, subject, file) => {
    const outgoing = c.env.outgoing;
    const controller = new AbortController();
    const onClose = () => { if (!outgoing.writableFinished) controller.abort(new Error('the browser closed the connection')); };
    outgoing.once('close', onClose);
    const aborted = (stage: string) => {
      log('portal-download-aborted', { path: c.req.path, user: c.get('session').user.username, address: c.get('address'), stage });
      return RESPONSE_ALREADY_SENT;
    };
    let release: (() => void) | 'full';
    try {
      const waiting = slots.counts().waiting;
      const slot = slots.acquire(controller.signal);
      if (slots.counts().waiting > waiting) {
        log('portal-download-queued', { path: c.req.path, user: c.get('session').user.username, ...slots.counts() });
      }
      release = await slot;
    } catch {
      return aborted('waiting for a slot');
    }
    if (release === 'full') {
      outgoing.off('close', onClose);
      const { running, waiting } = slots.counts();
      log('portal-download-busy', { path: c.req.path, user: c.get('session').user.username, running, waiting });
      c.header('Retry-After', String(downloadRetryAfterSeconds));
      return errorPage(c, 503, `The portal is preparing ${running} downloads and ${waiting} more are waiting, so this one was not started.`, `Try again in ${downloadRetryAfterSeconds} seconds.`);
    }
    let prepared: PreparedDownload;
    try {
      prepared = await prepare({ signal: controller.signal, scratchDir });
    } catch (err) {
      release();
      if (controller.signal.aborted) return aborted('preparing');
      outgoing.off('close', onClose);
      return configErrorPage(c, err);
    }
    return send(c, prepared, subject(), file(prepared), controller, release);
  };

  const postOnly: Downloads['postOnly'] = (c) => {
    log('portal-get-refused', { path: c.req.path, user: c.get('session').user.username, address: c.get('address') });
    c.header('Allow', 'POST');
    return errorPage(c, 405, 'Downloads start from the buttons on the Reports page.', 'Open Reports, choose the period and format, and press a download button.');
  };

  return { inSlot, postOnly };
}

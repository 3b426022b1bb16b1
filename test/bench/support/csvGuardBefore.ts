// CsvGuard as it was before the fast scan (commit a7cff13: one state machine over every byte,
// each formula-like unquoted cell read into a string for the number test), kept so
// reportLedger.bench.ts can pair the old guard with the new one in the same run.
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

// A plain decimal (spreadsheetSafeCell's rule): left alone even when it starts with + or -.
const plainNumber = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const APOSTROPHE = Buffer.from("'");
const OPEN_APOSTROPHE = Buffer.from(`"'`);
const OPEN = Buffer.from('"');

// '=', '+', '-', '@', tab, CR (text cannot hold NUL): csvLines' first look.
const formulaStart = new Uint8Array(256);
for (const c of [61, 43, 45, 64, 9, 13]) formulaStart[c] = 1;

const OUT_BYTES = 64 * 1024;

const enum State { FieldStart, Unquoted, Candidate, QuotedOpen, QuotedOpenQuote, Quoted, QuotedQuote }

/**
 * Turns PostgreSQL's CSV output (COPY ... TO STDOUT WITH (FORMAT csv), LF line ends) into the
 * bytes csvLines writes for the same rows, in one pass over the bytes:
 *  - a cell a spreadsheet would run as a formula (spreadsheetSafeCell: it starts with '=', '+',
 *    '-', '@', tab or CR and is not a plain number) gets its leading `'` (inside the quotes when
 *    PostgreSQL quoted it; such a cell holds a quote, comma or line break, so it is no number), and
 *    is counted in `neutralised`;
 *  - an empty string, which PostgreSQL writes as `""` to tell it from NULL, is written empty, as
 *    csv-stringify writes both.
 * Everything else is passed through as slices of the chunks it came in; a cell may span chunks.
 * PostgreSQL quotes exactly what csv-stringify quotes (a `"`, `,`, CR or LF; inner quotes doubled)
 * except a lone `\.` in a one-column file, which streamQueryToCsv leaves to the Node path.
 *
 * @example
 * const guard = new CsvGuard(); await pipeline(copyStream, guard, file); guard.neutralised; guard.sha256;
 */
export class CsvGuard extends Transform {
  neutralised = 0;
  /** Bytes written out so far, and their SHA-256 (hex) once the stream has ended. */
  bytes = 0;
  sha256 = '';
  private readonly hash = createHash('sha256');
  // Output is gathered and pushed in pieces of about OUT_BYTES: COPY arrives a row per chunk, and
  // a push (and a file write) per row costs more than the scan.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private state = State.FieldStart;
  // A formula-like unquoted cell that began in an earlier chunk: its bytes so far.
  private carry: Buffer | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const parts: Buffer[] = [];
    let from = 0; // start of the bytes not yet pushed
    let candidate = -1; // where a formula-like unquoted cell starts in this chunk
    let state = this.state;
    if (state === State.Candidate) candidate = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const b = chunk[i]!;
      switch (state) {
        case State.FieldStart:
          if (b === COMMA || b === LF) break;
          if (b === QUOTE) {
            parts.push(chunk.subarray(from, i));
            from = i + 1; // the opening quote is held until the cell's first byte is known
            state = State.QuotedOpen;
          } else if (formulaStart[b] === 1) {
            candidate = i;
            state = State.Candidate;
          } else {
            state = State.Unquoted;
          }
          break;
        case State.Unquoted:
          if (b === COMMA || b === LF) state = State.FieldStart;
          break;
        case State.Candidate:
          if (b === COMMA || b === LF) {
            const carry = this.carry;
            const text = carry === null ? chunk.toString('latin1', candidate, i) : carry.toString('latin1') + chunk.toString('latin1', 0, i);
            if (!plainNumber.test(text)) {
              this.neutralised++;
              if (carry === null) {
                parts.push(chunk.subarray(from, candidate), APOSTROPHE);
                from = candidate;
              } else {
                parts.push(APOSTROPHE);
              }
            }
            if (carry !== null) { parts.push(carry); this.carry = null; }
            candidate = -1;
            state = State.FieldStart;
          }
          break;
        case State.QuotedOpen:
          if (b === QUOTE) {
            from = i + 1;
            state = State.QuotedOpenQuote;
          } else {
            if (formulaStart[b] === 1) {
              this.neutralised++;
              parts.push(OPEN_APOSTROPHE);
            } else {
              parts.push(OPEN);
            }
            from = i;
            state = State.Quoted;
          }
          break;
        case State.QuotedOpenQuote:
          if (b === QUOTE) {
            // The cell starts with a doubled quote (one `"` of content).
            parts.push(OPEN, OPEN);
            from = i;
            state = State.Quoted;
          } else {
            // `""` and then the end of the cell: an empty string, written empty.
            from = i;
            state = State.FieldStart;
          }
          break;
        case State.Quoted:
          if (b === QUOTE) state = State.QuotedQuote;
          break;
        case State.QuotedQuote:
          state = b === QUOTE ? State.Quoted : State.FieldStart;
          break;
      }
    }
    if (state === State.Candidate) {
      // The cell goes on in the next chunk: keep its bytes until its end decides.
      const rest = chunk.subarray(candidate === -1 ? 0 : candidate);
      if (this.carry === null) {
        parts.push(chunk.subarray(from, candidate));
        this.carry = Buffer.from(rest);
      } else {
        this.carry = Buffer.concat([this.carry, rest]);
      }
    } else if (from < n) {
      parts.push(chunk.subarray(from, n));
    }
    this.state = state;
    for (const part of parts) {
      if (part.length === 0) continue;
      this.pending.push(part);
      this.pendingBytes += part.length;
    }
    if (this.pendingBytes >= OUT_BYTES) this.emit_();
    done();
  }

  private emit_(): void {
    if (this.pendingBytes === 0) return;
    const out = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.hash.update(out);
    this.bytes += out.length;
    this.push(out);
  }

  override _flush(done: TransformCallback): void {
    // COPY ends every line with LF, so no cell is open at the end; this is only for safety.
    if (this.carry !== null) {
      if (!plainNumber.test(this.carry.toString('latin1'))) { this.neutralised++; this.pending.push(APOSTROPHE); this.pendingBytes += 1; }
      this.pending.push(this.carry);
      this.pendingBytes += this.carry.length;
      this.carry = null;
    }
    this.emit_();
    this.sha256 = this.hash.digest('hex');
    done();
  }
}

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
// A cell separator followed by a formula start: where the fast scan stops (one-byte text, so
// string positions are byte positions). The separator is matched, the cell starts one after it.
const formulaAfterSeparator = /[,\n][=+\-@\t\r]/g;

const OUT_BYTES = 256 * 1024;

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
 * Two scans, same result. A chunk without a `"` (nearly every chunk of a report: quoting is
 * rare) outside a quoted cell has no quoting to follow, so only the cells that start with a
 * formula character need a look: a native RegExp over the chunk's bytes as one-byte text finds
 * each separator followed by one, and the cell's bytes are tested for a plain number where they
 * lie. Any other chunk goes through the state machine byte by byte.
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
  // Output is gathered and pushed in pieces of about OUT_BYTES: a push (and a file write) per
  // chunk COPY arrives in costs more than the scan.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private state = State.FieldStart;
  // A formula-like unquoted cell that began in an earlier chunk: its bytes so far.
  private carry: Buffer | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const state = this.state;
    if (state >= State.QuotedOpen || chunk.indexOf(QUOTE) !== -1) {
      this.slowScan(chunk, 0, chunk.length, 0);
    } else {
      // No quoting to follow. A cell left open by the last chunk is finished byte by byte.
      let begin = 0;
      if (state !== State.FieldStart) {
        while (begin < chunk.length && chunk[begin] !== COMMA && chunk[begin] !== LF) begin++;
        begin = begin < chunk.length ? begin + 1 : begin;
      }
      const from = begin > 0 ? this.slowScan(chunk, 0, begin, 0) : 0;
      if (begin < chunk.length) this.fastScan(chunk, begin, from);
    }
    if (this.pendingBytes >= OUT_BYTES) this.emit_();
    done();
  }

  private part(part: Buffer): void {
    if (part.length === 0) return;
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  /**
   * chunk[begin..] holds no `"` and a cell starts at begin (state FieldStart); bytes before
   * `from` are already passed on.
   */
  private fastScan(chunk: Buffer, begin: number, from: number): void {
    const n = chunk.length;
    const text = chunk.toString('latin1');
    let cell = formulaStart[chunk[begin]!] === 1 ? begin : -1;
    formulaAfterSeparator.lastIndex = begin;
    for (;;) {
      if (cell === -1) {
        if (!formulaAfterSeparator.test(text)) break;
        cell = formulaAfterSeparator.lastIndex - 1;
      }
      let end = cell + 1;
      while (end < n && chunk[end] !== COMMA && chunk[end] !== LF) end++;
      if (end === n) {
        // The cell goes on in the next chunk: keep its bytes until its end decides.
        this.part(chunk.subarray(from, cell));
        this.carry = Buffer.from(chunk.subarray(cell));
        this.state = State.Candidate;
        return;
      }
      if (!isPlainNumber(chunk, cell, end)) {
        this.neutralised++;
        this.part(chunk.subarray(from, cell));
        this.part(APOSTROPHE);
        from = cell;
      }
      formulaAfterSeparator.lastIndex = end;
      cell = -1;
    }
    this.part(chunk.subarray(from, n));
    const last = chunk[n - 1];
    this.state = last === COMMA || last === LF ? State.FieldStart : State.Unquoted;
  }

  /**
   * The state machine over chunk[begin, end), for chunks with quoted cells; bytes before `from`
   * are already passed on. Returns the new `from`.
   */
  private slowScan(chunk: Buffer, begin: number, end: number, from: number): number {
    let candidate = -1; // where a formula-like unquoted cell starts in this chunk
    let state = this.state;
    if (state === State.Candidate) candidate = begin;
    for (let i = begin; i < end; i++) {
      const b = chunk[i]!;
      switch (state) {
        case State.FieldStart:
          if (b === COMMA || b === LF) break;
          if (b === QUOTE) {
            this.part(chunk.subarray(from, i));
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
            const plain = carry === null ? isPlainNumber(chunk, candidate, i) : plainNumber.test(carry.toString('latin1') + chunk.toString('latin1', begin, i));
            if (!plain) {
              this.neutralised++;
              if (carry === null) {
                this.part(chunk.subarray(from, candidate));
                this.part(APOSTROPHE);
                from = candidate;
              } else {
                this.part(APOSTROPHE);
              }
            }
            if (carry !== null) { this.part(carry); this.carry = null; }
            candidate = -1;
            state = State.FieldStart;
          }
          break;
        case State.QuotedOpen:
          if (b === QUOTE) {
            from = i + 1;
            state = State.QuotedOpenQuote;
          } else {
            this.part(formulaStart[b] === 1 ? OPEN_APOSTROPHE : OPEN);
            if (formulaStart[b] === 1) this.neutralised++;
            from = i;
            state = State.Quoted;
          }
          break;
        case State.QuotedOpenQuote:
          if (b === QUOTE) {
            // The cell starts with a doubled quote (one `"` of content).
            this.part(OPEN);
            this.part(OPEN);
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
    this.state = state;
    if (state === State.Candidate) {
      // The cell goes on in the next chunk (only when end is the chunk's end): keep its bytes
      // until its end decides.
      const rest = chunk.subarray(candidate, end);
      if (this.carry === null) {
        this.part(chunk.subarray(from, candidate));
        this.carry = Buffer.from(rest);
      } else {
        this.carry = Buffer.concat([this.carry, rest]);
      }
      return end;
    }
    if (end === chunk.length) {
      this.part(chunk.subarray(from, end));
      return end;
    }
    return from;
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
      if (!plainNumber.test(this.carry.toString('latin1'))) { this.neutralised++; this.part(APOSTROPHE); }
      this.part(this.carry);
      this.carry = null;
    }
    this.emit_();
    this.sha256 = this.hash.digest('hex');
    done();
  }
}

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 48 && b <= 57;

// plainNumber's test on the bytes buf[start, end), without making a string of them.
function isPlainNumber(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  if (i < end && (buf[i] === 43 || buf[i] === 45)) i++;
  let digits = 0;
  while (i < end && isDigit(buf[i])) { i++; digits++; }
  if (i < end && buf[i] === 46) {
    i++;
    while (i < end && isDigit(buf[i])) { i++; digits++; }
  }
  if (digits === 0) return false;
  if (i < end && (buf[i] === 101 || buf[i] === 69)) {
    i++;
    if (i < end && (buf[i] === 43 || buf[i] === 45)) i++;
    const exponentStart = i;
    while (i < end && isDigit(buf[i])) i++;
    if (i === exponentStart) return false;
  }
  return i === end;
}

/**
 * A tiny terminal for tests: replays what a program wrote to a pseudo-terminal (text, CR/LF,
 * the cursor and erase sequences the CLI uses) onto a grid of `rows` x `columns` with a
 * scrollback, so a test can read the final screen exactly as a person would see it.
 *
 * @example
 * const screen = new ScreenModel(24, 100); screen.write(ptyOutput); screen.visible(); // 24 lines
 */
export class ScreenModel {
  /** Scrollback and screen: the screen is the last `rows` lines. */
  readonly lines: string[][] = [];
  /** The most lines any one sequence moved the cursor up. */
  maxCursorUp = 0;
  private top = 0;
  private row = 0;
  private col = 0;

  constructor(readonly rows: number, readonly columns: number) {
    for (let i = 0; i < rows; i++) this.lines.push([]);
  }

  write(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b') { i = this.escape(text, i); continue; }
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') this.lineFeed();
      else if (ch === '\b') this.col = Math.max(0, this.col - 1);
      else if (ch === '\t') this.col = Math.min(this.columns - 1, (Math.floor(this.col / 8) + 1) * 8);
      else if (ch >= ' ') {
        if (this.col >= this.columns) { this.col = 0; this.lineFeed(); }
        this.line()[this.col] = ch;
        this.col++;
      }
    }
  }

  /** The screen's lines, trailing spaces trimmed. */
  visible(): string[] {
    return this.lines.slice(this.top, this.top + this.rows).map((l) => this.text(l));
  }

  /** Every line ever shown, scrollback included. */
  all(): string[] {
    return this.lines.map((l) => this.text(l));
  }

  private text(l: string[]): string {
    return Array.from({ length: l.length }, (_, i) => l[i] ?? ' ').join('').trimEnd();
  }

  private line(): string[] {
    return this.lines[this.top + this.row]!;
  }

  private lineFeed(): void {
    if (this.row < this.rows - 1) this.row++;
    else { this.top++; this.lines.push([]); }
  }

  private up(n: number): void {
    this.maxCursorUp = Math.max(this.maxCursorUp, n);
    this.row = Math.max(0, this.row - n);
  }

  // Reads one escape sequence starting at text[i]; returns the index of its last character.
  private escape(text: string, i: number): number {
    if (text[i + 1] === ']') { // OSC: up to BEL or ESC \
      let j = i + 2;
      while (j < text.length && text[j] !== '\x07' && !(text[j] === '\x1b' && text[j + 1] === '\\')) j++;
      return text[j] === '\x07' ? j : j + 1;
    }
    if (text[i + 1] !== '[') return i + 1;
    let j = i + 2;
    while (j < text.length && !/[@-~]/.test(text[j]!)) j++;
    const params = text.slice(i + 2, j);
    const n = (k = 0, fallback = 1) => {
      const v = params.replace(/^\?/, '').split(';')[k];
      return v === undefined || v === '' ? fallback : Number(v);
    };
    const line = this.line();
    switch (text[j]) {
      case 'A': this.up(n()); break;
      case 'F': this.up(n()); this.col = 0; break;
      case 'B': this.row = Math.min(this.rows - 1, this.row + n()); break;
      case 'E': this.row = Math.min(this.rows - 1, this.row + n()); this.col = 0; break;
      case 'C': this.col = Math.min(this.columns - 1, this.col + n()); break;
      case 'D': this.col = Math.max(0, this.col - n()); break;
      case 'G': this.col = Math.min(this.columns - 1, n() - 1); break;
      case 'H': this.row = Math.min(this.rows - 1, n(0) - 1); this.col = Math.min(this.columns - 1, n(1) - 1); break;
      case 'K': {
        const mode = n(0, 0);
        if (mode === 2) line.length = 0;
        else if (mode === 0) line.length = Math.min(line.length, this.col);
        else for (let c = 0; c <= this.col; c++) line[c] = ' ';
        break;
      }
      case 'J': {
        const mode = n(0, 0);
        if (mode === 0) {
          line.length = Math.min(line.length, this.col);
          for (let r = this.row + 1; r < this.rows; r++) this.lines[this.top + r]!.length = 0;
        } else if (mode === 2 || mode === 3) {
          for (let r = 0; r < this.rows; r++) this.lines[this.top + r]!.length = 0;
        }
        break;
      }
      default: break; // colours and modes do not move text
    }
    return j;
  }
}

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ecbRates } from '../../src/imports/ecbRates.js';
import { koinlyTransactions } from '../../src/imports/koinlyTransactions.js';
import { TradeledgerError } from '../../src/errors.js';
import { fileText, wholeText } from '../../src/imports/fileText.js';
import { csvStream } from '../../src/imports/csvRows.js';
import { memoryFile } from '../support/memoryFile.js';

const now = new Date('2026-01-01T00:00:00Z');

function refusal(fn: () => unknown): TradeledgerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TradeledgerError);
    return e as TradeledgerError;
  }
  throw new Error('expected the file to be refused');
}

describe('ECB rates file', () => {
  it('reads the eurofxref-hist.csv layout: trailing comma, N/A, newest first, exact decimals', () => {
    const rates = ecbRates('eurofxref-hist.csv', '\uFEFFDate,USD,JPY,CYP,\r\n2025-01-03,1.0299,161.25,N/A,\r\n2007-12-31,1.4721,164.93,0.585274,\r\n', now);
    expect(rates).toEqual([
      { currency: 'USD', day: '2025-01-03', perEur: '1.0299', line: 2 },
      { currency: 'JPY', day: '2025-01-03', perEur: '161.25', line: 2 },
      { currency: 'USD', day: '2007-12-31', perEur: '1.4721', line: 3 },
      { currency: 'JPY', day: '2007-12-31', perEur: '164.93', line: 3 },
      { currency: 'CYP', day: '2007-12-31', perEur: '0.585274', line: 3 },
    ]);
  });

  it.each([
    ['an unknown currency', 'Date,USD,XXQ,\n2025-01-03,1.03,2,\n', 'rates.csv line 1, column 3 (XXQ): unknown currency \'XXQ\''],
    ['a negative rate', 'Date,USD,GBP,\n2025-01-03,1.03,-0.83,\n', 'rates.csv line 2, column 3 (GBP): \'-0.83\' is negative'],
    ['a malformed rate', 'Date,USD,\n2025-01-03,1,03,\n', 'rates.csv line 2: 4 fields where the header has 2'],
    ['a rate that is not a number', 'Date,USD,\n2025-01-03,abc,\n', 'rates.csv line 2, column 2 (USD): \'abc\' is not a decimal number'],
    ['a future date', 'Date,USD,\n2026-01-02,1.03,\n', 'rates.csv line 2, column 1 (Date): 2026-01-02 is in the future'],
    ['an impossible date', 'Date,USD,\n2025-02-30,1.03,\n', 'rates.csv line 2, column 1 (Date): \'2025-02-30\' is not a date: February 2025 has no day 30 (it has 28)'],
    ['a day listed twice', 'Date,USD,\n2025-01-03,1.03,\n2025-01-02,1.04,\n2025-01-03,1.03,\n', 'rates.csv line 4, column 1 (Date): 2025-01-03 is listed twice (also line 2)'],
    ['a file without the Date column', 'Day,USD,\n2025-01-03,1.03,\n', 'rates.csv line 1, column 1 (Day): the first column is \'Day\', not \'Date\''],
    ['an unclosed quote', 'Date,USD,\n2025-01-03,"1.03,\n', 'rates.csv line 2: not a readable CSV file'],
  ])('refuses %s, naming file, line and column', (_what, text, message) => {
    const e = refusal(() => ecbRates('rates.csv', text, now));
    expect(e.message.startsWith(message), e.message).toBe(true);
    expect(e.message).toContain('nothing was imported');
    expect(e.hint).toBeTruthy();
    expect(e.kind).toBe('config');
  });

  // The ECB's page offers one day's rates (eurofxref.zip, the date written out) beside the
  // history (eurofxref-hist.zip); the one-day file was told to be "the ECB file as downloaded".
  it('names the history file when given the ECB\'s one-day file', () => {
    const e = refusal(() => ecbRates('eurofxref.csv', 'Date, USD, JPY, GBP, \n24 December 2025, 1.0500, 160.12, 0.8400, \n', now));
    expect(e.message).toBe("eurofxref.csv line 2, column 1 (Date): '24 December 2025' is not a date (YYYY-MM-DD); nothing was imported");
    expect(e.hint).toMatch(/^This looks like the ECB's file of one day's rates \(eurofxref\.zip\); import its history instead: eurofxref-hist\.zip/);
    expect(refusal(() => ecbRates('rates.csv', 'Date,USD,\n2025-02-30,1.03,\n', now)).hint).not.toMatch(/one day's rates/);
  });
});

describe('Koinly universal CSV', () => {
  const header = 'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';

  it('reads every column by name, amounts exact, dates UTC', () => {
    const rows = koinlyTransactions('k.csv', `${header}\n2024-05-01 10:00 UTC,0.123456789012345678,BTC,2000.5,usdt,1,USDT,1950.10,EUR,,"sold, at last",0xff\n2024-05-02T11:30:15Z,,,7,$WIF,,,,,reward,,\n`, now);
    expect(rows[0]).toMatchObject({
      line: 2, ts: '2024-05-01T10:00:00.000Z', sentAmount: '0.123456789012345678', sentCurrency: 'BTC', receivedAmount: '2000.5', receivedCurrency: 'USDT',
      feeAmount: '1', feeCurrency: 'USDT', netWorthAmount: '1950.1', netWorthCurrency: 'EUR', label: null, description: 'sold, at last', txHash: '0xff',
    });
    expect(rows[1]).toMatchObject({ line: 3, ts: '2024-05-02T11:30:15.000Z', sentAmount: null, receivedAmount: '7', receivedCurrency: '$WIF', label: 'reward' });
  });

  it.each([
    ['a negative amount', '2024-05-01 10:00 UTC,-1,BTC,,,,,,,,,', 'k.csv line 2, column 2 (Sent Amount): \'-1\' is negative'],
    ['a future date', '2026-01-01 00:01 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): 2026-01-01 00:01 UTC is in the future'],
    ['a bad date', '01/05/2024,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): \'01/05/2024\' is not a date and time (YYYY-MM-DD HH:mm UTC)'],
    ['30 February', '2024-02-30 10:00:00 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): \'2024-02-30 10:00:00 UTC\' is not a date and time: February 2024 has no day 30 (it has 29)'],
    ['31 April', '2023-04-31 10:00 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): \'2023-04-31 10:00 UTC\' is not a date and time: April 2023 has no day 31 (it has 30)'],
    ['month 13', '2023-13-01 10:00 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): \'2023-13-01 10:00 UTC\' is not a date and time: there is no month 13'],
    ['hour 24', '2023-05-01 24:00 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): \'2023-05-01 24:00 UTC\' is not a date and time: 24:00 is not a time of day (00:00 to 23:59)'],
    ['an unknown Net Worth currency', '2024-05-01 10:00 UTC,1,BTC,,,,,100,EURO,,,', 'k.csv line 2, column 9 (Net Worth Currency): unknown currency \'EURO\''],
    ['an unknown coin', '2024-05-01 10:00 UTC,1,bit coin,,,,,,,,,', 'k.csv line 2, column 3 (Sent Currency): unknown currency \'bit coin\''],
    ['an amount without its currency', '2024-05-01 10:00 UTC,1,,,,,,,,,,', 'k.csv line 2, column 3 (Sent Currency): Sent Amount 1 without a currency'],
    ['a line with nothing sent or received', '2024-05-01 10:00 UTC,,,,,1,BTC,,,,,', 'k.csv line 2, column 1 (Date): neither a sent nor a received amount'],
    ['a malformed amount', '2024-05-01 10:00 UTC,"1,000",BTC,,,,,,,,,', 'k.csv line 2, column 2 (Sent Amount): \'1,000\' is not a decimal number'],
    ['an extra field', '2024-05-01 10:00 UTC,1,BTC,,,,,,,,Paid, thanks,0xabc', 'k.csv line 2, column 13 (after the last column): an extra field \'0xabc\': the line has 13 fields where the header has 12'],
    ['a missing field', '2024-05-01 10:00 UTC,1,BTC', 'k.csv line 2: 3 fields where the header has 12'],
    ['a year-0000 date', '0000-01-01 00:00 UTC,1,BTC,,,,,,,,,', 'k.csv line 2, column 1 (Date): 0000-01-01 00:00 UTC is before 1970'],
    ['a 140,000-digit amount', `2024-05-01 10:00 UTC,${'1'.repeat(140_000)},BTC,,,,,,,,,`, 'k.csv line 2, column 2 (Sent Amount): \'11111111111111111111…\' (140000 characters) has more than 30 digits'],
    ['31 digits after the point', '2024-05-01 10:00 UTC,0.0000000000000000000000000000001,BTC,,,,,,,,,', 'k.csv line 2, column 2 (Sent Amount): \'0.0000000000000000000000000000001\' has more than 30 digits'],
    ['a zero amount as the only side', '2024-05-01 10:00 UTC,0,BTC,,,0.1,BTC,,,,,', 'k.csv line 2, column 1 (Date): neither a sent nor a received amount'],
  ])('refuses %s, naming file, line and column', (_what, line, message) => {
    const e = refusal(() => koinlyTransactions('k.csv', `${header}\n${line}\n`, now));
    expect(e.message.startsWith(message), e.message).toBe(true);
  });

  it.each([
    ['a decimal comma', '"1,5"', 'with a point for the decimals and no thousands separators'],
    ['thousands separators', '"1,234.5"', 'with a point for the decimals and no thousands separators'],
    ['an exponent', '1E-08', 'Write the number in full (0.00000001, not 1E-08)'],
    ['a word', 'one', 'Amounts are positive; the column (Sent or Received) gives the direction.'],
  ])('says what %s is and how to save the file instead', (_what, amount, hint) => {
    const e = refusal(() => koinlyTransactions('k.csv', `${header}\n2024-05-01 10:00 UTC,${amount},BTC,,,,,,,,,\n`, now));
    expect(e.message).toContain('is not a decimal number');
    expect(e.hint).toContain(hint);
  });

  it('refuses a line repeated word for word, naming both lines', () => {
    const line = '2024-05-01 10:00 UTC,1,BTC,,,,,,,,,';
    const e = refusal(() => koinlyTransactions('k.csv', `${header}\n${line}\n2024-05-02 10:00 UTC,2,BTC,,,,,,,,,\n${line}\n`, now));
    expect(e.message).toMatch(/^k\.csv line 4: the same transaction as line 2/);
  });

  it('takes zeros (Fee Amount 0, Received Amount 0, 0.000 with or without a currency) as no such side, keeping them in raw', () => {
    const rows = koinlyTransactions('k.csv', `${header}\n2024-05-01 10:00 UTC,1,ETH,0,USD,0,ETH,0,USD,,,\n2024-05-02 10:00 UTC,0.000,,2,BTC,0.00,,,,,,\n`, now);
    expect(rows[0]).toMatchObject({ sentAmount: '1', sentCurrency: 'ETH', receivedAmount: null, receivedCurrency: null, feeAmount: null, feeCurrency: null, netWorthAmount: '0', netWorthCurrency: 'USD' });
    expect(JSON.parse(rows[0]!.rawJson)['Received Amount']).toBe('0');
    expect(rows[1]).toMatchObject({ sentAmount: null, sentCurrency: null, receivedAmount: '2', feeAmount: null });
  });

  it('refuses a file without a Date column', () => {
    expect(refusal(() => koinlyTransactions('k.csv', 'When,Sent Amount,Sent Currency\n', now)).message).toMatch(/^k\.csv line 1: no Date column/);
  });

  it('says a file is separated by semicolons or tabs (a spreadsheet in another locale), not only that Date is missing', () => {
    const semi = refusal(() => koinlyTransactions('k.csv', 'Date;Sent Amount;Sent Currency\n2024-05-01 10:00 UTC;1,5;BTC\n', now));
    expect(semi.message).toMatch(/^k\.csv line 1: the columns are separated by semicolons, not commas/);
    expect(semi.hint).toContain('commas between the columns');
    expect(refusal(() => koinlyTransactions('k.csv', 'Date\tSent Amount\tSent Currency\n', now)).message).toMatch(/^k\.csv line 1: the columns are separated by tabs, not commas/);
    // One column named otherwise is still "no Date column".
    expect(refusal(() => koinlyTransactions('k.csv', 'When;Amount\n', now)).message).toMatch(/^k\.csv line 1: no Date column/);
  });
});

describe('reading a file in chunks', () => {
  const collect = async (src: ReturnType<typeof memoryFile>) => {
    const rows: { line: number; fields: readonly string[] }[] = [];
    for await (const row of csvStream(src.name, fileText(src))) rows.push(row);
    return rows;
  };

  it('gives the same rows whatever the chunk size: lines, quoted line breaks and multi-byte characters across reads', async () => {
    // (A line break inside quotes is \n here: csv-parse counts a quoted \r\n as two lines.)
    const text = '\uFEFFDate,Description\r\n2024-05-01 10:00 UTC,"café, ☕\nsecond line"\r\n\r\n2024-05-02 10:00 UTC,日本\r\n2024-05-03 10:00 UTC,last';
    const whole = await collect(memoryFile('k.csv', text));
    expect(whole).toEqual([
      { line: 1, fields: ['Date', 'Description'] },
      { line: 3, fields: ['2024-05-01 10:00 UTC', 'café, ☕\nsecond line'] },
      { line: 5, fields: ['2024-05-02 10:00 UTC', '日本'] },
      { line: 6, fields: ['2024-05-03 10:00 UTC', 'last'] },
    ]);
    for (const size of [1, 2, 3, 7]) expect(await collect(memoryFile('k.csv', text, size))).toEqual(whole);
  });

  it.each([
    ['a Latin-1 byte', Buffer.concat([Buffer.from('Date,D\n2024-05-01 10:00 UTC,ok\n2024-05-02 10:00 UTC,caf'), Buffer.from([0xe9]), Buffer.from('\n')]), 'k.csv line 3: bytes that are not UTF-8 text'],
    ['a cut multi-byte character at the end', Buffer.concat([Buffer.from('Date,D\n2024-05-01 10:00 UTC,'), Buffer.from([0xe6, 0x97])]), 'k.csv line 2: bytes that are not UTF-8 text'],
    ['a NUL character', Buffer.from('Date,D\n2024-05-01 10:00 UTC,a\u0000b\n'), 'k.csv line 2: a NUL character'],
    // What a spreadsheet's "Unicode Text" saves (UTF-16 little-endian with its byte-order mark), and the two orders without a mark.
    ['UTF-16 text (little-endian, with a byte-order mark)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date,D\n2024-05-01 10:00 UTC,a\n', 'utf16le')]), 'k.csv line 1: the file is UTF-16 text'],
    ['UTF-16 text (little-endian, no mark)', Buffer.from('Date,D\n2024-05-01 10:00 UTC,a\n', 'utf16le'), 'k.csv line 1: the file is UTF-16 text'],
    ['UTF-16 text (big-endian, no mark)', Buffer.from('Date,D\n2024-05-01 10:00 UTC,a\n', 'utf16le').swap16(), 'k.csv line 1: the file is UTF-16 text'],
  ])('refuses %s naming its line, in any chunk size', async (_what, bytes, message) => {
    for (const size of [1, 5, 1 << 20]) {
      const e = await collect(memoryFile('k.csv', bytes, size)).then(() => null, (x: unknown) => x);
      expect(e).toBeInstanceOf(TradeledgerError);
      expect((e as TradeledgerError).message.startsWith(message), (e as TradeledgerError).message).toBe(true);
    }
  });

  it('hashes the bytes as read', async () => {
    const { sha256 } = await wholeText(memoryFile('r.csv', 'Date,USD,\n', 3));
    expect(sha256).toBe(createHash('sha256').update('Date,USD,\n').digest('hex'));
  });
});

describe('Koinly dates read without a Date per line (issue 24)', () => {
  // What the reader gave before its fast path for "YYYY-MM-DD HH:mm UTC": the regex, a Date,
  // toISOString, and the date written must be the moment's own.
  const before = (v: string): string | null => {
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?( ?UTC|Z)?$/.exec(v);
    const d = new Date(m ? `${m[1]}T${m[2]}${m[3] ?? ':00'}Z` : '');
    const out = Number.isNaN(d.getTime()) ? '' : d.toISOString();
    if (!m || out.slice(0, 10) !== m[1] || d.getTime() < Date.UTC(1970, 0, 1) || d.getTime() > now.getTime()) return null;
    return out;
  };
  it.each([
    '2024-05-01 10:00 UTC', '2024-02-29 23:59 UTC', '2023-02-29 10:00 UTC', '2000-02-29 00:00 UTC', '2100-02-29 00:00 UTC',
    '1970-01-01 00:00 UTC', '1969-12-31 23:59 UTC', '2024-04-31 10:00 UTC', '2024-12-31 24:00 UTC', '2024-01-01 23:60 UTC',
    '2024-00-10 10:00 UTC', '2024-13-01 10:00 UTC', '2024-01-00 10:00 UTC', '2026-01-01 00:00 UTC', '2026-01-01 00:01 UTC',
    '2024-1a-01 10:00 UTC', '2024-05-01 10:00 utc', '2024-05-01 10:00:30 UTC', '2024-05-01T10:00Z', '2024-05-01 10:00',
  ])('%s: the same moment or the same refusal as before', (v) => {
    const read = () => koinlyTransactions('k.csv', `Date,Received Amount,Received Currency\n${v},1,BTC\n`, now)[0]!.ts;
    const want = before(v);
    if (want === null) expect(read).toThrow(/k\.csv line 2, column 1 \(Date\)/);
    else expect(read()).toBe(want);
  });
});

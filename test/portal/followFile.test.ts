import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followFile } from '../../src/portal/followFile.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'tl-follow-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('followFile', () => {
  it('reads what a writer appends, including a file created after the read began, until the writer is done', async () => {
    const file = path.join(dir, 'growing.csv');
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => { finish = resolve; });
    const reading = collect(followFile(file, finished, 5));
    const parts = ['a,b\n', '1,2\n'.repeat(50_000), '3,4\n'];
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(file, parts[0]!);
    for (const part of parts.slice(1)) {
      await new Promise((r) => setTimeout(r, 15));
      await appendFile(file, part);
    }
    finish();
    expect((await reading).toString()).toBe(parts.join(''));
  });

  it('fails when the writer fails, so a download is cut off rather than ending short', async () => {
    const file = path.join(dir, 'failing.csv');
    await writeFile(file, 'partial');
    let fail!: (err: Error) => void;
    const finished = new Promise<void>((_resolve, reject) => { fail = reject; });
    const reading = collect(followFile(file, finished, 5));
    setTimeout(() => fail(new Error('query failed')), 30);
    await expect(reading).rejects.toThrow('query failed');
  });

  it('ends at once for an empty file whose writer is done', async () => {
    const file = path.join(dir, 'empty.csv');
    await writeFile(file, '');
    expect((await collect(followFile(file, Promise.resolve(), 5))).length).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../../src/sandbox/server/isLoopback.js';

describe('isLoopback', () => {
  it.each([['127.0.0.1', true], ['::ffff:127.0.0.1', true], ['::1', true], ['127.0.1.1', true], ['192.0.2.2', false], ['::ffff:10.0.0.1', false], ['fd00::2', false], [undefined, false]])(
    '%s -> %s', (ip, expected) => expect(isLoopback(ip)).toBe(expected),
  );
});

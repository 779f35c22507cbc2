import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TokenService } from './tokens.js';

vi.mock('jose', async (original) => {
  const actual = await original<typeof import('jose')>();
  return { ...actual, jwtVerify: vi.fn(actual.jwtVerify) };
});

const SECRET = 'tokens-test-secret-tokens-test-secret-0123';
const viewer = () => ({ id: randomUUID(), sessionId: randomUUID() });

afterEach(() => {
  vi.useRealTimers();
  vi.mocked(jose.jwtVerify).mockClear();
});

describe('session tokens: a signature is checked once per token, expiry on every use', () => {
  test('the same token verifies again without checking its signature again', async () => {
    const tokens = await TokenService.create(SECRET, '/nonexistent');
    const member = viewer();
    const token = await tokens.sign(member, new Date(Date.now() + 60_000));
    expect(await tokens.verify(token)).toEqual(member);
    expect(await tokens.verify(token)).toEqual(member);
    expect(jose.jwtVerify).toHaveBeenCalledTimes(1);
  });

  test('a token altered after a good one was checked is still refused', async () => {
    const tokens = await TokenService.create(SECRET, '/nonexistent');
    const token = await tokens.sign(viewer(), new Date(Date.now() + 60_000));
    await tokens.verify(token);
    const [head, body, signature] = token.split('.');
    const forged = `${head}.${body}.${(signature ?? '').slice(0, -2)}${signature?.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verify(forged)).rejects.toThrow('Invalid token');
    const other = await TokenService.create(`${SECRET}-other`, '/nonexistent');
    await expect(other.verify(token)).rejects.toThrow('Invalid token');
  });

  test('a remembered token runs out at its expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = await TokenService.create(SECRET, '/nonexistent');
    const token = await tokens.sign(viewer(), new Date(Date.now() + 60_000));
    await tokens.verify(token);
    vi.setSystemTime(Date.now() + 61_000);
    await expect(tokens.verify(token)).rejects.toThrow('Your session has expired');
  });
});

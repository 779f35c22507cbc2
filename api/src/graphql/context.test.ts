import { expect, test } from 'vitest';
import { socketCredentials } from './context.js';

const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';

test('a token under any of the keys clients use, with or without Bearer, is the socket’s sign-in', () => {
  for (const params of [
    { authorization: `Bearer ${token}` },
    { Authorization: `bearer  ${token}` },
    { authorization: token },
    { token },
    { authToken: token },
    { headers: { Authorization: `Bearer ${token}` } },
    { headers: { authorization: token } },
    { headers: { AUTHORIZATION: token } },
    { token, authToken: `Bearer ${token}`, headers: { Authorization: token } },
  ]) {
    expect(socketCredentials(params), JSON.stringify(params)).toEqual({ kind: 'token', token });
  }
});

test('nothing (or only empty values) is anonymous', () => {
  for (const params of [undefined, {}, { token: '' }, { authorization: null, headers: {} }, { headers: null }, { other: 'x' }]) {
    expect(socketCredentials(params), JSON.stringify(params)).toEqual({ kind: 'anonymous' });
  }
});

test('two different tokens, or a value that is no token, are malformed', () => {
  for (const params of [
    { authorization: `Bearer ${token}`, token: 'other' },
    { authToken: token, headers: { Authorization: 'Bearer other' } },
    { authorization: 'Basic dXNlcjpwYXNz' },
    { authorization: 'Bearer' },
    { token: 42 },
    { token: 'two words' },
    { headers: 'Authorization: Bearer x' },
    { headers: [token] },
  ]) {
    expect(socketCredentials(params), JSON.stringify(params)).toEqual({ kind: 'malformed' });
  }
});

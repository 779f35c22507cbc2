import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { orderedMultipart } from './multipart.js';

// The tests import the multipart builders with the rest of the upload helpers.
export { type FormPart, filePartHead, orderedMultipart } from './multipart.js';

/**
 * A raw HTTP/1.1 request on a real socket: writes the head and the first bytes of the body, then hands the socket
 * over, so a test can stop sending, or cut the connection, as a real client would.
 */
export async function startRawRequest(
  port: number,
  head: { method: string; path: string; headers: Record<string, string | number> },
  firstBytes: Buffer,
): Promise<{ socket: Socket; response: Promise<string>; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const lines = [`${head.method} ${head.path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(head.headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  socket.write(firstBytes);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, response: closed.then(() => received), closed };
}

/** Uploads a complete mix through POST /api/mix/create-mix as `token`'s owner; expects a 201 and answers its body. */
export async function createMixOver(
  app: FastifyInstance,
  token: string,
  files: { cover: Buffer; mp3: Buffer; title?: string; genre?: string },
): Promise<{ _id: string; mp3: string; cover: string }> {
  const body = orderedMultipart([
    { name: 'cover', fileName: 'c.jpg', type: 'image/jpeg', data: files.cover },
    { name: 'title', value: files.title ?? 'Test mix' },
    { name: 'mp3', fileName: 'm.mp3', type: 'audio/mpeg', data: files.mp3 },
    { name: 'genre', value: files.genre ?? 'house' },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/mix/create-mix',
    headers: { ...body.headers, 'x-auth-token': token },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

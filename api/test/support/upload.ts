import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export type FormPart = { name: string; value: string } | { name: string; fileName: string; type: string; data: Buffer };

/** A multipart/form-data body with its parts in the order given (the SPEC's client sends cover, title, mp3, genre). */
export function orderedMultipart(parts: FormPart[]) {
  const boundary = `----mixcrate${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), boundary, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The opening of a file part, for bodies written piece by piece. */
export const filePartHead = (boundary: string, name: string, fileName: string, type: string) =>
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`);

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

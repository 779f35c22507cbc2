import { randomBytes } from 'node:crypto';

/** Multipart bodies, built without vitest so the benches share them with the tests. */

export type FormPart = { name: string; value: string } | { name: string; fileName: string; type: string; data: Buffer };

/** A multipart/form-data body with its parts in the order given (the original client sends cover, title, mp3, genre). */
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

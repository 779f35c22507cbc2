import sharp from 'sharp';

export function solidImage(format: 'jpeg' | 'png' | 'gif' | 'webp', width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A small PNG whose header declares 30000 x 30000 pixels: a decompression bomb. */
export async function imageBomb(): Promise<Buffer> {
  const png = await solidImage('png', 8, 8);
  const bomb = Buffer.from(png);
  bomb.writeUInt32BE(30_000, 16);
  bomb.writeUInt32BE(30_000, 20);
  return bomb;
}

/** A multipart/form-data body for app.inject. */
export function multipart(fields: Record<string, string>, files: { field: string; name: string; type: string; data: Buffer }[] = []) {
  const boundary = `----mixcrate${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

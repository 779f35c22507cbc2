import sharp from 'sharp';
import { orderedMultipart } from './multipart.js';

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

/** A multipart/form-data body for app.inject: the fields, then the files. */
export function multipart(fields: Record<string, string>, files: { field: string; name: string; type: string; data: Buffer }[] = []) {
  const body = orderedMultipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ...files.map((file) => ({ name: file.field, fileName: file.name, type: file.type, data: file.data })),
  ]);
  return { payload: body.payload, headers: body.headers };
}

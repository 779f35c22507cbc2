import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CRC32C } from '@google-cloud/storage';

interface StoredGcsObject {
  data: Buffer;
  contentType: string;
  updated: Date;
  generation: number;
}

export interface GcsStandIn {
  url: string;
  objects: Map<string, StoredGcsObject>;
  /** Every request as `METHOD path?query`, to check what the SDK really sent. */
  requests: string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const hashes = (data: Buffer) => {
  const crc = new CRC32C();
  crc.update(data);
  return { crc32c: crc.toString(), md5Hash: createHash('md5').update(data).digest('base64') };
};

function resource(bucket: string, name: string, object: StoredGcsObject) {
  return {
    kind: 'storage#object',
    bucket,
    name,
    id: `${bucket}/${name}/${object.generation}`,
    size: String(object.data.length),
    contentType: object.contentType,
    generation: String(object.generation),
    updated: object.updated.toISOString(),
    timeCreated: object.updated.toISOString(),
    ...hashes(object.data),
  };
}

/** The parts of a multipart/related body (a simple upload: JSON metadata, then the bytes). */
function relatedParts(body: Buffer, contentType: string): Buffer[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(at + delimiter.length, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    parts.push(part.subarray(headerEnd + 4, part.length - 2));
    at = next;
  }
  return parts;
}

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
};
const notFound = (response: ServerResponse) => json(response, 404, { error: { code: 404, message: 'No such object' } });

/**
 * A small HTTP stand-in for the Cloud Storage JSON API: simple and resumable uploads, metadata, ranged media
 * downloads and deletes: just what the SDK sends for our driver, so the real SDK can be tested on this machine.
 */
export async function startGcsStandIn(): Promise<GcsStandIn> {
  const objects = new Map<string, StoredGcsObject>();
  const sessions = new Map<string, { bucket: string; name: string; contentType: string; received: Buffer[] }>();
  const requests: string[] = [];
  let generation = 1;
  let url = '';

  const store = (bucket: string, name: string, data: Buffer, contentType: string) => {
    const object = { data, contentType, updated: new Date(), generation: generation++ };
    objects.set(`${bucket}/${name}`, object);
    return resource(bucket, name, object);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const target = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(`${request.method} ${target.pathname}${target.search}`);
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(target.pathname);
    const object = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(target.pathname);

    if (upload && request.method === 'POST' && target.searchParams.get('uploadType') === 'multipart') {
      const [metadataPart, data] = relatedParts(await bodyOf(request), request.headers['content-type'] ?? '');
      const metadata = JSON.parse(metadataPart.toString()) as { name?: string; contentType?: string };
      const name = target.searchParams.get('name') ?? metadata.name ?? '';
      return json(response, 200, store(upload[1], name, data, metadata.contentType ?? 'application/octet-stream'));
    }
    if (upload && request.method === 'POST' && target.searchParams.get('uploadType') === 'resumable') {
      const metadata = JSON.parse((await bodyOf(request)).toString() || '{}') as { name?: string; contentType?: string };
      const id = randomBytes(8).toString('hex');
      const name = target.searchParams.get('name') ?? metadata.name ?? '';
      const contentType = metadata.contentType ?? String(request.headers['x-upload-content-type'] ?? 'application/octet-stream');
      sessions.set(id, { bucket: upload[1], name, contentType, received: [] });
      // At the address the client used (a host in a network namespace reaches the stand-in through a forwarder).
      const base = request.headers.host ? `http://${request.headers.host}` : url;
      response.writeHead(200, { location: `${base}/upload/storage/v1/b/${upload[1]}/o?uploadType=resumable&upload_id=${id}` }).end();
      return;
    }
    if (upload && request.method === 'PUT') {
      const session = sessions.get(target.searchParams.get('upload_id') ?? '');
      if (!session) return notFound(response);
      const chunk = await bodyOf(request);
      session.received.push(chunk);
      // `bytes 0-*/*` is one streaming request whose end is the object's end; `bytes 0-N/*` is one chunk of several.
      const range = /^bytes (\d+)-(\d+|\*)\/(\d+|\*)$/.exec(String(request.headers['content-range'] ?? ''));
      const isFinal = range !== null && (range[2] === '*' || range[3] !== '*');
      const received = Buffer.concat(session.received);
      if (!isFinal) {
        response.writeHead(308, received.length ? { range: `bytes=0-${received.length - 1}` } : {}).end();
        return;
      }
      sessions.delete(target.searchParams.get('upload_id') ?? '');
      return json(response, 200, store(session.bucket, session.name, received, session.contentType));
    }
    if (object) {
      const [bucket, name] = [object[1], decodeURIComponent(object[2])];
      const stored = objects.get(`${bucket}/${name}`);
      if (request.method === 'DELETE') {
        if (!stored) return notFound(response);
        objects.delete(`${bucket}/${name}`);
        response.writeHead(204).end();
        return;
      }
      if (request.method !== 'GET') return json(response, 405, { error: { code: 405 } });
      if (!stored) return notFound(response);
      if (target.searchParams.get('alt') !== 'media') return json(response, 200, resource(bucket, name, stored));
      const { crc32c, md5Hash } = hashes(stored.data);
      const headers = { 'content-type': stored.contentType, 'x-goog-hash': `crc32c=${crc32c},md5=${md5Hash}` };
      const rangeMatch = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ''));
      if (rangeMatch) {
        const start = Number(rangeMatch[1]);
        const end = rangeMatch[2] ? Math.min(Number(rangeMatch[2]), stored.data.length - 1) : stored.data.length - 1;
        response
          .writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${stored.data.length}` })
          .end(stored.data.subarray(start, end + 1));
        return;
      }
      response.writeHead(200, headers).end(stored.data);
      return;
    }
    json(response, 400, { error: { code: 400, message: `stand-in does not know ${request.method} ${target.pathname}` } });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => json(response, 500, { error: { code: 500, message: error.message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}

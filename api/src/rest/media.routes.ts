import { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { multipartParts } from '../http/multipart.js';
import { viewerOf } from '../http/viewer.js';
import type { UploadPart } from '../modules/media/media.service.js';
import type { IMix } from '../modules/mixes/mix.entity.js';
import type { Services } from '../services.js';
import { MP3_RULE } from '../shared/rules.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf } from './request.js';

const FORM_LIMITS = {
  // Our own checks refuse an MP3 at 300 MB and a cover at 5 MB with the documented words; busboy's cap is only a backstop.
  fileSize: MP3_RULE.maxBytes + 1024 * 1024,
  files: 2,
  fields: 10,
  fieldSize: 4096,
  parts: 12,
};

async function* formParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) {
    for (const [field, value] of Object.entries(bodyOf(request))) if (typeof value === 'string') yield { type: 'field', field, value };
    return;
  }
  for await (const part of multipartParts(request, FORM_LIMITS)) {
    if (part.type === 'file') yield { type: 'file', field: part.fieldname, fileName: part.filename, stream: part.file };
    else yield { type: 'field', field: part.fieldname, value: String(part.value) };
  }
}

/** When we answer before the body is read (a refused file), close the connection instead of draining the rest. */
function closeIfUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete) reply.header('connection', 'close');
}

const draftWire = (services: Services, mix: IMix) => ({
  _id: mix.id,
  title: mix.title,
  genre: mix.genre,
  cover: services.mixes.coverUrl(mix),
  mp3: services.mixes.audioUrl(mix),
  duration: mix.durationSeconds,
  createdAt: mix.createdAt.toISOString(),
});

/** Create-mix, and the tus endpoint that lets a large MP3 survive a dropped connection (docs/upload.md#calls). */
export function mediaRoutes(services: Services) {
  const { media } = services;
  return async (app: FastifyInstance) => {
    app.post('/mix/create-mix', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      try {
        const clientGone = () => request.raw.socket instanceof Socket && request.raw.socket.destroyed;
        const mix = await media.createMixFromUpload(viewer.id, formParts(request), clientGone);
        return reply.status(201).send(draftWire(services, mix));
      } catch (error) {
        closeIfUnread(request, reply);
        throw error;
      }
    });

    await app.register(async (tus) => {
      // tus reads the raw request body itself.
      tus.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        await media.uploads.handle(request.raw, reply.raw);
      };
      tus.route({ method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: '/uploads', handler });
      tus.route({ method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: '/uploads/:id', handler });
    });
  };
}

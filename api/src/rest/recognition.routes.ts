import type { FastifyInstance, FastifyRequest } from 'fastify';
import { multipartParts } from '../http/multipart.js';
import { viewerOf } from '../http/viewer.js';
import { RecognitionErrors } from '../modules/recognition/recognition.errors.js';
import type { ReferenceAudio, ReferenceOutcome } from '../modules/recognition/track-references.service.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf } from './request.js';

const referenceWire = (view: ReferenceOutcome) => ({
  track_id: view.trackId,
  seconds: view.seconds,
  fingerprints: view.fingerprints,
  queued: view.queued,
});

/**
 * The form's `audio`: a file (MP3 or WAV), or the id of a finished resumable upload (multipart field or JSON body).
 * The file is handed on as it streams; `use` runs while the request body is read.
 */
async function withReferenceAudio<T>(request: FastifyRequest, maxBytes: number, use: (audio: ReferenceAudio) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) return use({ uploadId: bodyOf(request).audio ?? null });
  // Our own check refuses a file past maxBytes with our words; the parser's cap is only a backstop.
  const limits = { fileSize: maxBytes + 1024 * 1024, files: 1, fields: 4, fieldSize: 1024, parts: 5 };
  for await (const part of multipartParts(request, limits)) {
    if (part.type === 'file' && part.fieldname === 'audio') return use({ stream: part.file });
    if (part.type === 'file') part.file.resume();
    else if (part.fieldname === 'audio') return use({ uploadId: part.value });
  }
  throw RecognitionErrors.noAudio();
}

/** Reference audio for a track, from its verified creators or label or a moderator (see referencePolicy): fingerprinted for recognition. */
export function recognitionRoutes(services: Services) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { id: string } }>('/track/:id/reference', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      try {
        const { trackReferences } = services;
        const view = await withReferenceAudio(request, trackReferences.maxBytes, (audio) =>
          trackReferences.add(viewer, request.params.id, audio),
        );
        // Queued for a moderator: accepted, not yet in the index.
        return reply.status(view.queued ? 202 : 201).send(referenceWire(view));
      } catch (error) {
        // Answering before the whole body is read (a refused file): close rather than drain the rest.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
    });

    app.delete<{ Params: { id: string } }>('/track/:id/reference', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      await services.trackReferences.remove(viewer, request.params.id);
      return reply.status(204).send();
    });
  };
}

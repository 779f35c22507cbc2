import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.js';
import { onBodyStalled } from './request-guards.js';

type PartLimits = NonNullable<Parameters<FastifyRequest['parts']>[0]>['limits'];

/**
 * A malformed body (no boundary, a wrong one, garbage, a truncated part) is the client's mistake: the parser's error
 * becomes a 400 with its own words (`http/errors.ts` answers errors carrying a 4xx statusCode with their message).
 */
function asClientError(error: unknown): unknown {
  if (error instanceof Error && !(error instanceof DomainError) && !('statusCode' in error)) {
    Object.assign(error, { statusCode: 400, message: `Malformed form data: ${error.message}` });
  }
  return error;
}

/**
 * The parts of a multipart request, whose parse errors (in the form or inside a file part) are 400s. Should the body
 * stall, the part being read (or the wait for the next) fails with the guard's 408, so its reader removes what it
 * stored before the 408 is answered (see onBodyStalled).
 */
export async function* multipartParts(request: FastifyRequest, limits: PartLimits): AsyncGenerator<Multipart> {
  let file: Readable | null = null;
  const stalled = new Promise<never>((_, reject) =>
    onBodyStalled(request.raw, (error) => {
      if (file && !file.readableEnded) file.destroy(error);
      reject(error);
    }),
  );
  // Heeded only while the next part is awaited; a stall while a file is read reaches its reader through the file.
  stalled.catch(() => undefined);
  const parts = (request.parts({ limits }) as AsyncIterable<Multipart>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = parts.next();
      // Should the stall win the race, the parser still fails this read when the connection goes: nobody awaits it then.
      next.catch(() => undefined);
      const { done, value: part } = await Promise.race([next, stalled]);
      if (done) return;
      if (part.type === 'file') {
        // The file may have failed before it reached us (a truncated body is read ahead), or may fail while read.
        if (part.file.errored) asClientError(part.file.errored);
        part.file.prependListener('error', asClientError);
        file = part.file;
      }
      yield part;
    }
  } catch (error) {
    throw asClientError(error);
  }
}

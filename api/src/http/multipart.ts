import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.js';

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

/** The parts of a multipart request, whose parse errors (in the form or inside a file part) are 400s. */
export async function* multipartParts(request: FastifyRequest, limits: PartLimits): AsyncGenerator<Multipart> {
  try {
    for await (const part of request.parts({ limits }) as AsyncIterable<Multipart>) {
      if (part.type === 'file') {
        // The file may have failed before it reached us (a truncated body is read ahead), or may fail while read.
        if (part.file.errored) asClientError(part.file.errored);
        part.file.prependListener('error', asClientError);
      }
      yield part;
    }
  } catch (error) {
    throw asClientError(error);
  }
}

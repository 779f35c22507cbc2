import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, TooManyRequestsError } from '../shared/errors.js';

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Empty JSON body'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid Content-Length'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body too large'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [406, 'Expected a multipart/form-data request'],
  FST_REQ_FILE_TOO_LARGE: [413, 'File too large'],
  FST_PARTS_LIMIT: [413, 'Too many parts in the form'],
  FST_FILES_LIMIT: [413, 'Too many files in the form'],
  FST_FIELDS_LIMIT: [413, 'Too many fields in the form'],
};

export interface ErrorBody {
  error: string;
  message: string;
  status: number;
}

/** One mapping from errors to HTTP answers: domain errors keep their status and message; nothing unexpected leaks. */
export function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let status = 500;
  let message = 'Internal server error';
  if (error instanceof DomainError) {
    status = error.status;
    message = error.message;
    if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
  } else {
    const code = (error as FastifyError).code;
    const known = code ? FASTIFY_MESSAGES[code] : undefined;
    const statusCode = (error as FastifyError).statusCode;
    if (known) [status, message] = known;
    else if ((error as FastifyError).validation) [status, message] = [400, error.message];
    else if (statusCode && statusCode >= 400 && statusCode < 500) [status, message] = [statusCode, error.message];
  }
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  const body: ErrorBody = { error: message, message, status };
  return reply.status(status).send(body);
}

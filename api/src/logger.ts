import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type LogFormat = 'json' | 'text';

/** Text for a person watching a terminal while developing; JSON in production and for whatever reads a pipe or a file. */
export function logFormatFor(production: boolean, stdoutIsTTY: boolean): LogFormat {
  return !production && stdoutIsTTY ? 'text' : 'json';
}

/**
 * The server's pino logger. Text is prettified in this thread, not in pino-pretty's worker, so it reaches the terminal
 * in order with what the start writes itself (the banner).
 */
export function createLogger(level: LevelWithSilent, format: LogFormat, output?: DestinationStream): Logger {
  if (format === 'json') return output ? pino({ level }, output) : pino({ level });
  const terminal = output ?? process.stdout;
  // A request's fields are already in its message; the request id only matters when lines are collected and searched.
  const prettify = prettyFactory({ ignore: 'pid,hostname,reqId,request', translateTime: 'HH:MM:ss' });
  return pino({ level }, { write: (line: string) => terminal.write(prettify(line)) });
}

/**
 * Query parameters whose values are credentials, never logged: a reset link's token (and its address), a code, a
 * checkout session's id, and a GraphQL GET's variables (which may carry any of them, or a password).
 */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'code', 'session_id', 'email', 'variables']);

const decodedName = (name: string) => {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
};

/** A request URL as it may be logged: the values of secret query parameters (by their decoded name) replaced. */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      return SECRET_QUERY_PARAMETERS.has(decodedName(name)) ? `${name}=[redacted]` : part;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** One line per request, when its answer has gone, instead of Fastify's two ("incoming request", "request completed"). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const { method } = request;
    const url = loggableUrl(request.url);
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = `${method} ${url} ${status} ${ms} ms`;
    if (error) request.log.error({ request: { method, url, status, ms }, err: error }, line);
    else request.log.info({ request: { method, url, status, ms } }, line);
  }
}

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

/** One line per request, when its answer has gone, instead of Fastify's two ("incoming request", "request completed"). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const { method, url } = request;
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = `${method} ${url} ${status} ${ms} ms`;
    if (error) request.log.error({ request: { method, url, status, ms }, err: error }, line);
    else request.log.info({ request: { method, url, status, ms } }, line);
  }
}

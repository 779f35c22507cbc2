import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Failure } from './figures.js';
import { REQUEST_TIMEOUT_MS } from './settings.js';

/**
 * HTTP over keep-alive connections from a chosen loopback address (node:http: the client costs little CPU, and
 * `localAddress` spreads members over addresses).
 */

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Who sends: a member's address and token (sign-up spreads members over loopback addresses). */
export interface Sender {
  address: string;
  token: string;
}

export const agents = new Map<string, Agent>();
function agentFor(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 48, maxFreeSockets: 48 });
    agents.set(address, agent);
  }
  return agent;
}

const inflate = { br: promisify(brotliDecompress), gzip: promisify(gunzip) };

/** The API's origin, once it is listening. */
export const api = { base: '' };

export function send(
  method: string,
  path: string,
  options: { address?: string; token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string | number> } = {},
): Promise<Answer> {
  const address = options.address ?? '127.0.0.1';
  const headers: Record<string, string | number> = { 'accept-encoding': 'br, gzip', ...options.headers };
  if (options.token) headers['x-auth-token'] = options.token;
  let body = options.body;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  }
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${api.base}${path}`, { method, headers, agent: agentFor(address), localAddress: address }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const decoded = encoding === 'br' ? inflate.br(raw) : encoding === 'gzip' ? inflate.gzip(raw) : Promise.resolve(raw);
        decoded.then((decodedBody) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: decodedBody }), reject);
      });
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

export const jsonOf = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;

export function expectStatus(answer: Answer, ...statuses: number[]): Answer {
  if (!statuses.includes(answer.status)) throw new Failure(answer.status, answer.body.toString('utf8'));
  return answer;
}

export async function graphql<T>(query: string, variables: Record<string, unknown>, member?: Sender): Promise<T> {
  const answer = await send('POST', '/graphql', {
    address: member?.address,
    json: { query, variables },
    headers: member ? { authorization: `Bearer ${member.token}` } : {},
  });
  expectStatus(answer, 200);
  const result = jsonOf<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] }>(answer);
  if (result.errors?.length) throw new Failure(`graphql ${result.errors[0]?.extensions?.code ?? 'error'}`, answer.body.toString('utf8'));
  return result.data as T;
}

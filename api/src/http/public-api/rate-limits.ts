import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionArgs, GraphQLError, type GraphQLSchema, getOperationAST } from 'graphql';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { costOfOperation, type SpendOperationCost } from '../../graphql/limits.js';
import type { Services } from '../../services.js';
import { TooManyRequestsError } from '../../shared/errors.js';
import type { Viewer } from '../../shared/viewer.js';
import { viewerOf } from '../viewer.js';

/** The two budgets every client has per window: REST and tus requests, and GraphQL cost (see graphql/limits.ts). */
export type Budget = 'requests' | 'graphql';

export interface Allowance {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is whole again. */
  resetSeconds: number;
}

/** IETF draft-ietf-httpapi-ratelimit-headers: what is left of the budget, and 429's Retry-After. */
export function rateLimitHeaders(allowance: Allowance): Record<string, string> {
  return {
    'ratelimit-limit': String(allowance.limit),
    'ratelimit-remaining': String(allowance.remaining),
    'ratelimit-reset': String(allowance.resetSeconds),
    ...(allowance.allowed ? {} : { 'retry-after': String(allowance.resetSeconds) }),
  };
}

const refusal = (allowance: Allowance, budget: Budget) =>
  budget === 'graphql'
    ? `Rate limit reached: this client spent its ${allowance.limit} GraphQL cost points for this window. Try again in ${allowance.resetSeconds} seconds.`
    : `Rate limit reached: this client sent its ${allowance.limit} requests for this window. Try again in ${allowance.resetSeconds} seconds.`;

/**
 * Counters per client (a member's id when the request carries a valid token, else the address) in Redis when
 * REDIS_URL is set, else in PostgreSQL (rate_limits.counter): either way every instance shares them.
 */
export class ApiRateLimits {
  private readonly limiters: Record<Budget, RateLimiterAbstract>;
  private readonly close: () => Promise<void>;

  constructor(config: Config, databaseUrl: string) {
    const windows = {
      requests: { points: config.RATE_LIMIT_REQUESTS, duration: config.RATE_LIMIT_WINDOW_SECONDS },
      graphql: { points: config.RATE_LIMIT_GRAPHQL_COST, duration: config.RATE_LIMIT_WINDOW_SECONDS },
    };
    if (config.REDIS_URL) {
      const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
      // Named after the database: the instances of one site share it; two sites on one Redis count apart.
      const site = new URL(databaseUrl).pathname.slice(1) || 'mixcrate';
      this.limiters = {
        requests: new RateLimiterRedis({ ...windows.requests, keyPrefix: `api:${site}:requests`, storeClient: redis }),
        graphql: new RateLimiterRedis({ ...windows.graphql, keyPrefix: `api:${site}:graphql`, storeClient: redis }),
      };
      this.close = async () => void redis.disconnect();
    } else {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: 'mixcrate-rate-limits' });
      // A dropped idle connection is replaced on next use; without a listener it would crash the process.
      pool.on('error', () => undefined);
      const store = { storeClient: pool, storeType: 'pool', schemaName: 'rate_limits', tableName: 'counter', tableCreated: true };
      this.limiters = {
        requests: new RateLimiterPostgres({ ...windows.requests, ...store, keyPrefix: 'requests' }),
        graphql: new RateLimiterPostgres({ ...windows.graphql, ...store, keyPrefix: 'graphql' }),
      };
      this.close = () => pool.end();
    }
  }

  /** Spends `points` of a client's budget; what is left, or a refusal when the budget cannot cover them. */
  async spend(budget: Budget, client: string, points: number): Promise<Allowance> {
    const limiter = this.limiters[budget];
    const allowance = (result: RateLimiterRes, allowed: boolean): Allowance => ({
      allowed,
      limit: limiter.points,
      remaining: allowed ? result.remainingPoints : 0,
      resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
    });
    try {
      return allowance(await limiter.consume(client, Math.max(1, Math.ceil(points))), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return allowance(rejection, false);
      throw rejection;
    }
  }

  shutdown(): Promise<void> {
    return this.close();
  }
}

/** The client a request counts against: its member when the token is good, else its address. */
async function clientOf(services: Services, request: FastifyRequest): Promise<string> {
  const viewer = await viewerOf(services, request).catch(() => null);
  return viewer ? `member:${viewer.id}` : `ip:${request.ip}`;
}

export const graphqlClientOf = (context: GraphQLContext) => (context.viewer ? `member:${context.viewer.id}` : `ip:${context.ip}`);

/** Counted paths: REST and tus. GraphQL counts by cost in its own plugin; media, pages and the app's files are not API operations. */
const countedPath = (url: string) => /^\/api(\/|\?|$)/.test(url);

/** Every /api request spends one point of its client's request budget, answered 429 with Retry-After once spent. */
export function restRateLimitHook(services: Services, limits: ApiRateLimits) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!countedPath(request.url) || request.method === 'OPTIONS') return;
    const allowance = await limits.spend('requests', await clientOf(services, request), 1);
    reply.headers(rateLimitHeaders(allowance));
    if (!allowance.allowed) throw new TooManyRequestsError(refusal(allowance, 'requests'), allowance.resetSeconds);
  };
}

/**
 * GraphQL over HTTP spends the operation's cost once it passed the operation limits (graphql/limits.ts calls this),
 * before anything runs; the answer carries the budget's headers, and a spent budget answers 429 with Retry-After.
 */
export function spendGraphqlCost(limits: ApiRateLimits): SpendOperationCost {
  return async ({ contextValue, response }, cost) => {
    const allowance = await limits.spend('graphql', graphqlClientOf(contextValue), cost);
    const headers = rateLimitHeaders(allowance);
    for (const [name, value] of Object.entries(headers)) response.http.headers.set(name, value);
    if (!allowance.allowed) {
      throw new GraphQLError(refusal(allowance, 'graphql'), {
        extensions: { code: 'TOO_MANY_REQUESTS', http: { status: 429, headers: new Map(Object.entries(headers)) } },
      });
    }
  };
}

/**
 * A subscription over graphql-ws spends its cost from the same budget as over HTTP, counted against the socket's
 * member (its connection token) or address; a spent budget refuses it with TOO_MANY_REQUESTS.
 */
export function socketRateLimit(schema: GraphQLSchema, limits: ApiRateLimits) {
  return async (
    socket: { viewer: Viewer | null; address: string },
    args: ExecutionArgs,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return args;
    const client = socket.viewer ? `member:${socket.viewer.id}` : `ip:${socket.address}`;
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const allowance = await limits.spend('graphql', client, costOfOperation(schema, args.document, operation, variables));
    return allowance.allowed ? args : [new GraphQLError(refusal(allowance, 'graphql'), { extensions: { code: 'TOO_MANY_REQUESTS' } })];
  };
}

export function registerRateLimits(app: FastifyInstance, services: Services, limits: ApiRateLimits): void {
  // preHandler, not onRequest: the documented sign-up steps carry their token in the JSON body, parsed by then.
  app.addHook('preHandler', restRateLimitHook(services, limits));
  app.addHook('onClose', () => limits.shutdown());
}

import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authRoutes } from './auth.routes.js';
import { userRoutes } from './users.routes.js';

/** The /api adapter: the SPEC §7 paths and wire names over the same services GraphQL uses. */
export function registerRestRoutes(services: Services) {
  return async (app: FastifyInstance) => {
    await app.register(authRoutes(services));
    await app.register(userRoutes(services));
  };
}

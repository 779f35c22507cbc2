import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authRoutes } from './auth.routes.js';
import { creatorRoutes } from './creators.routes.js';
import { followRoutes } from './follows.routes.js';
import { libraryRoutes } from './library.routes.js';
import { listenRoutes } from './listens.routes.js';
import { mediaRoutes } from './media.routes.js';
import { mixRoutes } from './mixes.routes.js';
import { moderationRoutes } from './moderation.routes.js';
import { oembedRoutes } from './oembed.routes.js';
import { paymentRoutes } from './payments.routes.js';
import { recognitionRoutes } from './recognition.routes.js';
import { recommendationRoutes } from './recommendations.routes.js';
import { searchRoutes } from './search.routes.js';
import { trackRoutes } from './tracks.routes.js';
import { trustRoutes } from './trust.routes.js';
import { userRoutes } from './users.routes.js';

/** The /api adapter: the paths (docs/public-api.md#rest-paths) and wire names over the same services GraphQL uses. */
export function registerRestRoutes(services: Services) {
  return async (app: FastifyInstance) => {
    await app.register(authRoutes(services));
    await app.register(userRoutes(services));
    await app.register(mediaRoutes(services));
    await app.register(mixRoutes(services));
    await app.register(libraryRoutes(services));
    await app.register(followRoutes(services));
    await app.register(listenRoutes(services));
    await app.register(oembedRoutes(services));
    await app.register(trackRoutes(services));
    await app.register(paymentRoutes(services));
    await app.register(recognitionRoutes(services));
    await app.register(recommendationRoutes(services));
    await app.register(searchRoutes(services));
    await app.register(moderationRoutes(services));
    await app.register(creatorRoutes(services));
    await app.register(trustRoutes(services));
  };
}

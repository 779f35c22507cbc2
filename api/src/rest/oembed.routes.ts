import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EMBED_SIZE } from '../http/public-api/embed-page.js';
import { shareCardFor } from '../http/share-meta.js';
import type { Services } from '../services.js';
import { InvalidInputError, NotFoundError } from '../shared/errors.js';

const DEFAULT_SIZE = { width: 480, height: 400 };
const MIN_SIZE = 120;

const dimension = z.coerce.number().int('must be a whole number of pixels').min(MIN_SIZE, `must be at least ${MIN_SIZE}`).max(4000);
const oembedQuery = z.object({
  url: z.string({ error: 'url is required' }).url('url must be a link to a shared mix or profile'),
  format: z.enum(['json', 'xml']).default('json'),
  maxwidth: dimension.optional(),
  maxheight: dimension.optional(),
});

/** oEmbed 1.0 (https://oembed.com) for shared mix and profile links, so chat apps and sites can unfurl and embed them. */
export function oembedRoutes(services: Services) {
  return async (app: FastifyInstance) => {
    app.get('/oembed', async (request, reply) => {
      const parsed = oembedQuery.safeParse(request.query);
      if (!parsed.success)
        throw new InvalidInputError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      const { url, format, maxwidth, maxheight } = parsed.data;
      if (format === 'xml')
        return reply.status(501).send({ error: 'Not implemented', message: 'Only format=json is offered', status: 501 });
      const link = new URL(url);
      const site = new URL(services.config.PUBLIC_URL);
      if (link.host !== site.host) throw new NotFoundError('Not a mixcrate link');
      const card = await shareCardFor(services, link.pathname);
      if (!card) throw new NotFoundError('No shared mix or profile at that link');
      // A mix embeds its compact player; a profile its shared page.
      const size = card.player ? EMBED_SIZE : DEFAULT_SIZE;
      const width = Math.min(maxwidth ?? size.width, size.width * 2);
      const height = Math.min(maxheight ?? size.height, size.height * 2);
      const src = (card.player ?? card.url).replace(/"/g, '%22');
      return {
        version: '1.0',
        type: 'rich',
        provider_name: 'mixcrate',
        provider_url: services.config.PUBLIC_URL,
        title: card.title,
        author_name: card.authorName,
        author_url: card.authorUrl,
        width,
        height,
        html: `<iframe src="${src}" width="${width}" height="${height}" style="border:0" loading="lazy" allow="autoplay; encrypted-media" title="mixcrate"></iframe>`,
        ...(card.image ? { thumbnail_url: card.image, thumbnail_width: 400, thumbnail_height: 400 } : {}),
      };
    });
  };
}

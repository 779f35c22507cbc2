import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { GENRES, type GenreCode } from '../../shared/domain.js';
import { NotFoundError, UnavailableForLegalReasonsError } from '../../shared/errors.js';
import { embedPage, MIX_NOT_FOUND_HTML, MIX_UNAVAILABLE_HTML } from './embed-page.js';

/**
 * /embed/mix/{id}: the compact player other sites put in an iframe (oEmbed's html, the Twitter player card): cover,
 * title, DJ, play and seek over the waveform, and a link back. Rendered here, so it plays without JavaScript (the
 * browser's own controls); the web build's small embed script (web/src/embed) turns it into the mixcrate player. Only
 * this path may be framed by other sites (http/security-headers.ts).
 */
export function embedRoutes(services: Services, webRoot: string | undefined) {
  let script: Promise<string | null> | null = null;
  // The built script's URL, from the Vite build's embed.html (read once; a new build needs a restart).
  const embedScript = () => {
    script ??= webRoot
      ? readFile(join(webRoot, 'embed.html'), 'utf8').then(
          (html) => /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html)?.[1] ?? null,
          () => null,
        )
      : Promise.resolve(null);
    return script;
  };
  const absolute = (path: string) => new URL(path, `${services.config.PUBLIC_URL}/`).toString();

  return async (app: FastifyInstance) => {
    app.get<{ Params: { id: string } }>('/embed/mix/:id', { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      let mix: Awaited<ReturnType<typeof services.mixes.detail>>['mix'];
      try {
        mix = (await services.mixes.detail(request.params.id, null)).mix;
      } catch (error) {
        if (error instanceof NotFoundError) return reply.status(404).type('text/html; charset=utf-8').send(MIX_NOT_FOUND_HTML);
        if (error instanceof UnavailableForLegalReasonsError)
          return reply.status(451).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(MIX_UNAVAILABLE_HTML);
        throw error;
      }
      if (mix.status !== 'published') return reply.status(404).type('text/html; charset=utf-8').send(MIX_NOT_FOUND_HTML);
      const dj = mix.owner.displayName || mix.owner.userName || 'a DJ';
      const genre = GENRES[mix.genre as GenreCode] ?? mix.genre;
      const link = absolute(`/shared-mix/${mix.id}`);
      const html = embedPage({
        mixId: mix.id,
        title: mix.title,
        dj,
        genre,
        link,
        cover: services.mixes.coverUrl(mix),
        audio: services.mixes.audioUrl(mix),
        durationSeconds: mix.durationSeconds ?? 0,
        script: await embedScript(),
      });
      return reply.type('text/html; charset=utf-8').send(html);
    });
  };
}

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { RenderPage } from '../shared/server-render.js';

/**
 * The web app's server renderer (web/src/server/render.tsx), built by the web build into dist-server/ beside the app's
 * dist/. Without it (a development checkout that never built it) pages are rendered by the browser alone. A renderer
 * that fails is logged and the page goes out for the browser to render: a shared link never answers 500 for it.
 */
export function serverRenderer(webRoot: string, log: FastifyBaseLogger): RenderPage {
  const file = join(dirname(webRoot), 'dist-server', 'render.js');
  let loaded: Promise<RenderPage | null> | null = null;
  const load = () => {
    loaded ??= existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (module: { renderPage: RenderPage }) => module.renderPage,
          (error: unknown) => {
            log.error({ err: error, file }, 'the server renderer could not be loaded; shared pages are rendered by the browser');
            return null;
          },
        )
      : Promise.resolve(null);
    return loaded;
  };
  // Loaded at start, not on the first shared link: that visitor would wait for the renderer's modules to load.
  void load();
  return async (path, execute) => {
    const render = await load();
    if (!render) return null;
    try {
      return await render(path, execute);
    } catch (error) {
      log.error({ err: error, path }, 'server rendering failed; the page is rendered by the browser');
      return null;
    }
  };
}

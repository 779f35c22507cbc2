import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Services } from '../services.js';
import { GENRES, type GenreCode, USER_TYPES, type UserTypeCode } from '../shared/domain.js';
import { NotFoundError, UnavailableForLegalReasonsError } from '../shared/errors.js';
import { escapeHtml, scriptJson } from '../shared/html.js';
import { HELD_CLICKS_GLOBAL, type RenderedPage, SERVER_STATE_ID } from '../shared/server-render.js';
import { embedPath } from './public-api/embed-page.js';
import { type ShareCard, shareTags } from './share-tags.js';

const SHARED_MIX = /^\/shared-mix\/([0-9a-f-]{36})\/?$/i;
const SHARED_PROFILE = /^\/shared-profile\/([A-Za-z0-9_.-]{1,30})\/?$/;
const MIX_PAGE = /^\/(?:shared-mix|mix)\/([0-9a-f-]{36})\/?$/i;

/** What a link to a mix taken down after a notice or by a moderator says, with its 451 (docs/trust.md#share-links). */
const UNAVAILABLE = {
  title: 'Unavailable for legal reasons',
  text: 'This mix was taken down after a copyright notice or by a moderator, and cannot be played here. If it is restored, this link works again.',
};

/**
 * Whether a path is a mix page (shared or not) whose mix is held back for legal reasons: it answers 451 with a clear
 * page, whatever the app would have rendered. The mix policy decides (`MixesService.detail` as nobody).
 */
export async function unavailableForLegalReasons(services: Services, path: string): Promise<boolean> {
  const mixId = MIX_PAGE.exec(path)?.[1];
  if (!mixId) return false;
  try {
    await services.mixes.detail(mixId, null);
    return false;
  } catch (error) {
    if (error instanceof UnavailableForLegalReasonsError) return true;
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/** Which kind of shared page a path is, whether or not anything is there. */
export function sharedKindOf(path: string): ShareCard['kind'] | null {
  if (SHARED_MIX.test(path)) return 'mix';
  return SHARED_PROFILE.test(path) ? 'profile' : null;
}

/** What a shared link to nothing says (docs/mix-page.md#not-found for mixes; the app's own words for members), before the app loads. */
const NOT_FOUND: Record<ShareCard['kind'], { title: string; text: string }> = {
  mix: { title: 'No mix found :-/', text: 'Sorry, that mix may have been removed.' },
  profile: { title: 'No member found', text: 'Nobody uses that name here. Check the link, or find members from the homepage.' },
};

const excerpt = (text: string, length = 160) => (text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text);

/** The card of a shared mix or profile page by its path; null for other paths and for what nobody may see. */
export async function shareCardFor(services: Services, path: string): Promise<ShareCard | null> {
  const base = services.config.PUBLIC_URL;
  const absolute = (url: string) => new URL(url, `${base}/`).toString();
  const mixId = SHARED_MIX.exec(path)?.[1];
  const userName = SHARED_PROFILE.exec(path)?.[1];
  try {
    if (mixId) {
      const { mix } = await services.mixes.detail(mixId, null);
      if (mix.status !== 'published') return null;
      const dj = mix.owner.displayName || mix.owner.userName || 'a DJ';
      const genre = GENRES[mix.genre as GenreCode] ?? mix.genre;
      return {
        kind: 'mix',
        title: mix.title,
        description: `Mix by ${dj} · ${genre}`,
        url: absolute(`/shared-mix/${mix.id}`),
        image: absolute(services.mixes.coverUrl(mix)),
        audio: absolute(services.mixes.audioUrl(mix)),
        player: absolute(embedPath(mix.id)),
        authorName: dj,
        authorUrl: absolute(`/shared-profile/${mix.owner.userName ?? ''}`),
      };
    }
    if (userName) {
      const { user } = await services.users.profile(userName, null);
      const name = user.displayName || user.userName || 'A member';
      const type = USER_TYPES[user.userType as UserTypeCode] ?? USER_TYPES.listener;
      const image = services.users.imageUrl(user);
      return {
        kind: 'profile',
        title: `${name} on mixcrate`,
        description: excerpt(user.bio ? `${type} · ${user.bio}` : `${type} on mixcrate`),
        url: absolute(`/shared-profile/${user.userName ?? userName}`),
        image: image ? absolute(image) : null,
        audio: null,
        player: null,
        authorName: name,
        authorUrl: absolute(`/shared-profile/${user.userName ?? userName}`),
      };
    }
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof UnavailableForLegalReasonsError) return null;
    throw error;
  }
  return null;
}

/** The web app's screens (Vite manifest keys) a shared page shows: the GraphQL layout route and the page itself. */
export const SHARED_SCREENS: Record<ShareCard['kind'], string[]> = {
  mix: ['src/lib/GraphQLBoundary.tsx', 'src/pages/mix/SharedMixPage.tsx'],
  profile: ['src/lib/GraphQLBoundary.tsx', 'src/pages/profile/SharedProfilePage.tsx'],
};

type ViteManifest = Record<string, { file: string; css?: string[]; imports?: string[] }>;

/** The chunks and styles of `screens` and of everything they import, from the build's Vite manifest. */
function screenAssets(manifest: ViteManifest, screens: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const screen of screens) visit(screen);
  return { scripts: [...scripts], styles: [...styles] };
}

const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">\s*/g;
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/;
const ENTRY_PRELOAD = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g;

/**
 * For a page rendered by the server: the app's JavaScript is requested once the browser has painted the markup (its
 * first contentful paint, or the next frame where paint timing is missing, or after a second, for a tab opened in the
 * background). Requested at once, 180 KB of scripts would share a slow link with the cover image and hold back the
 * paint that the server already made possible. Every chunk goes in as a module script of its own, each added in a task
 * of its own (adding sixteen at once was one long task on a slow phone), not as a modulepreload of the entry's: the
 * browser then runs each chunk's code in a task of its own as it arrives, where the entry's module graph would run in
 * one long task after the first paint (Lighthouse's phone at 8x CPU slowdown: total blocking time 330-460 ms, mean
 * 395, over 5 runs -> 120-450 ms, mean 275, over 8). Until the app has hydrated, a click on one of the page's buttons
 * (Play, say) is held, and the app answers it once it can (web/src/main.tsx). The script carries the answer's
 * Content-Security-Policy nonce (http/security-headers.ts): the policy lets no other inline script run.
 */
function scriptsAfterFirstPaint(scripts: string[], nonce: string): string {
  const hold =
    "var held=[];function hold(event){var button=event.target instanceof Element&&event.target.closest('#root button');if(!button)return;event.preventDefault();event.stopImmediatePropagation();if(held.indexOf(button)<0)held.push(button)}document.addEventListener('click',hold,true);";
  const handOver = `window.${HELD_CLICKS_GLOBAL}=function(){document.removeEventListener('click',hold,true);return held};`;
  const start = `var started=false;function start(){if(started)return;started=true;${scriptJson(scripts)}.forEach(function(src){setTimeout(function(){var script=document.createElement('script');script.type='module';script.crossOrigin='';script.src=src;document.head.appendChild(script)},0)})}`;
  const afterPaint =
    "if(window.PerformanceObserver&&(PerformanceObserver.supportedEntryTypes||[]).indexOf('paint')>=0){new PerformanceObserver(function(list){if(list.getEntriesByName('first-contentful-paint').length)start()}).observe({type:'paint',buffered:true})}else{requestAnimationFrame(function(){setTimeout(start,0)})}setTimeout(start,1000)";
  return `<script nonce="${escapeHtml(nonce)}">${hold}${handOver}${start}${afterPaint}</script>`;
}

/**
 * The web app's index.html, as it is or for a shared page: its tags in place of the generic title and description,
 * modulepreloads for its screen's chunks (a shared link is most people's first visit: without them the browser learns
 * of the screen's chunks only after the entry has run, one round trip after another) and, when the server rendered
 * it, the page's markup and data, with the styles it needs inlined so that nothing stands between the HTML and the
 * first paint. Template, manifest and styles are read once; a new build needs a restart, as the assets they name do.
 */
export function webPages(webRoot: string) {
  let template: Promise<string> | null = null;
  let manifest: Promise<ViteManifest> | null = null;
  const index = () => {
    template ??= readFile(join(webRoot, 'index.html'), 'utf8');
    return template;
  };
  const viteManifest = () => {
    manifest ??= readFile(join(webRoot, '.vite', 'manifest.json'), 'utf8').then(
      (text) => JSON.parse(text) as ViteManifest,
      () => ({}),
    );
    return manifest;
  };
  const styleTexts = new Map<string, Promise<string>>();
  const styleText = (file: string) => {
    let text = styleTexts.get(file);
    if (!text) {
      text = readFile(join(webRoot, file), 'utf8').catch(() => '');
      styleTexts.set(file, text);
    }
    return text;
  };
  return {
    index,
    /** The app's page for a shared link to nothing, with the not-found words in it (the app replaces them with its own). */
    async notFound(kind: ShareCard['kind']): Promise<string> {
      const { title, text } = NOT_FOUND[kind];
      return (await index())
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)} · mixcrate</title>`)
        .replace(
          '<div id="root"></div>',
          () => `<div id="root"><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></div>`,
        );
    },
    /** The page of a mix held back for legal reasons (its 451). */
    async unavailable(): Promise<string> {
      return (await index())
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(UNAVAILABLE.title)} · mixcrate</title>`)
        .replace(
          '<div id="root"></div>',
          () =>
            `<div id="root"><main><h1>${escapeHtml(UNAVAILABLE.title)}</h1><p>${escapeHtml(UNAVAILABLE.text)}</p><p><a href="/transparency">How takedowns work</a></p></main></div>`,
        );
    },
    async shared(card: ShareCard, publicUrl: string, rendered: RenderedPage | null, scriptNonce: string): Promise<string> {
      const html = await index();
      const { scripts, styles } = screenAssets(await viteManifest(), SHARED_SCREENS[card.kind]);
      const fresh = (file: string) => !html.includes(`/${file}"`);
      const link = (attributes: string) => (file: string) => `<link ${attributes} crossorigin href="/${escapeHtml(file)}" />`;
      const screenScripts = scripts.filter(fresh);
      const head = [shareTags(card, publicUrl)];
      let template = html;
      let body = '';
      if (rendered) {
        const entryStyles = [...html.matchAll(ENTRY_STYLESHEET)].map((match) => match[1] as string);
        const css = await Promise.all([...entryStyles, ...styles].map(styleText));
        head.push(`<style>${css.join('\n').replaceAll('</style', '<\\/style')}</style>`);
        // The app's loader for a screen's chunks (Vite's) fetches and applies every stylesheet it finds no link for, and
        // waits for them before the screen can hydrate: disabled links (never fetched) tell it these are here already.
        head.push(...styles.map(link('rel="stylesheet" disabled')));
        template = template.replace(ENTRY_STYLESHEET, '');
        body = `<script type="application/json" id="${SERVER_STATE_ID}">${scriptJson(rendered.state)}</script>`;
        const entry = ENTRY_SCRIPT.exec(html)?.[1];
        if (entry) {
          const preloads = [...html.matchAll(ENTRY_PRELOAD)].map((match) => match[1] as string);
          body += `\n    ${scriptsAfterFirstPaint([...preloads, ...screenScripts.map((file) => `/${file}`), entry], scriptNonce)}`;
          template = template.replace(ENTRY_SCRIPT, '').replace(ENTRY_PRELOAD, '');
        } else {
          head.push(...screenScripts.map(link('rel="modulepreload"')));
        }
      } else {
        head.push(...screenScripts.map(link('rel="modulepreload"')), ...styles.filter(fresh).map(link('rel="preload" as="style"')));
      }
      // Functions as replacements: a `$` in a title must stay a `$`.
      const page = template
        .replace(/<title>[^<]*<\/title>/, '')
        .replace(/<meta name="description"[^>]*>/, '')
        .replace('</head>', () => `    ${head.join('\n    ')}\n  </head>`);
      if (!rendered) return page;
      return page
        .replace('<div id="root"></div>', () => `<div id="root">${rendered.html}</div>`)
        .replace('</body>', () => `  ${body}\n  </body>`);
    },
  };
}

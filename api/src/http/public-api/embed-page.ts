import { escapeHtml } from '../../shared/html.js';

/** The compact player's size: what oEmbed's html and the Twitter player card ask for. */
export const EMBED_SIZE = { width: 480, height: 160 };

export const embedPath = (mixId: string) => `/embed/mix/${mixId}`;

const clock = (seconds: number) => {
  const whole = Math.max(0, Math.round(seconds));
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (value: number) => String(value).padStart(2, '0');
  return hours ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
};

const STYLE = `
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{font:14px/1.4 system-ui,sans-serif;background:#12121a;color:#f2f2f7;overflow:hidden}
main{display:flex;gap:12px;height:100%;padding:12px;align-items:center}
img{width:136px;height:136px;border-radius:6px;object-fit:cover;flex:none;background:#2a2a36}
.body{flex:1;min-width:0;display:flex;flex-direction:column;gap:6px}
h1{font-size:16px;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
a{color:#f2f2f7}a:focus-visible,button:focus-visible,input:focus-visible{outline:2px solid #ffb347;outline-offset:2px}
.by{margin:0;color:#c7c7d1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.player{display:flex;align-items:center;gap:8px}
button{width:40px;height:40px;border-radius:50%;border:0;background:#ffb347;color:#12121a;font-size:16px;cursor:pointer;flex:none}
.track{position:relative;flex:1;height:40px}
canvas{position:absolute;inset:0;width:100%;height:100%}
input[type=range]{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}
.time{font-variant-numeric:tabular-nums;color:#c7c7d1;font-size:12px}
audio{width:100%}
.back{font-size:12px;color:#ffb347}
.gone{padding:24px}
`;

/** The page for a mix nobody may see (or that never was): 404 with the words (docs/mix-page.md#not-found). */
export const MIX_NOT_FOUND_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No mix found · mixcrate</title><style>${STYLE}</style></head><body><main class="gone"><div><h1>No mix found :-/</h1><p class="by">Sorry, that mix may have been removed.</p></div></main></body></html>`;

/** The page for a mix taken down after a notice or by a moderator: 451 with the words (docs/trust.md#share-links). */
export const MIX_UNAVAILABLE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unavailable for legal reasons · mixcrate</title><style>${STYLE}</style></head><body><main class="gone"><div><h1>Unavailable for legal reasons</h1><p class="by">This mix was taken down after a copyright notice or by a moderator.</p></div></main></body></html>`;

/** What the embed player shows of a published mix; every text and URL in it is escaped here. */
export interface EmbedFacts {
  mixId: string;
  title: string;
  /** The DJ's display name (or user name): text the member chose. */
  dj: string;
  genre: string;
  /** The shared mix page, absolute. */
  link: string;
  cover: string;
  audio: string;
  durationSeconds: number;
  /** The web build's embed script, when there is one. */
  script: string | null;
}

/** The compact player's page (docs/sharing-and-embed.md#embed-player): plays with the browser's own controls until the script takes over. */
export function embedPage(facts: EmbedFacts): string {
  const { mixId, title, dj, genre, link, cover, audio, durationSeconds: duration, script: src } = facts;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(`${title} · mixcrate`)}</title>
<link rel="canonical" href="${escapeHtml(link)}">
<style>${STYLE}</style>
</head>
<body>
<main data-mix-id="${escapeHtml(mixId)}" data-duration="${duration}">
<img src="${escapeHtml(cover)}" alt="Cover of ${escapeHtml(title)}" width="136" height="136">
<div class="body">
<h1><a href="${escapeHtml(link)}" target="_blank" rel="noopener">${escapeHtml(title)}</a></h1>
<p class="by">${escapeHtml(`${dj} · ${genre}`)}</p>
<audio controls preload="none" src="${escapeHtml(audio)}" aria-label="Play ${escapeHtml(title)}"></audio>
<span class="time" hidden>0:00 / ${clock(duration)}</span>
<a class="back" href="${escapeHtml(link)}" target="_blank" rel="noopener">Listen on mixcrate</a>
</div>
</main>
${src ? `<script type="module" src="${escapeHtml(src)}"></script>` : ''}
</body>
</html>`;
}

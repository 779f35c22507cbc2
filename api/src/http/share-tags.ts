import { escapeHtml } from '../shared/html.js';
import { EMBED_SIZE } from './public-api/embed-page.js';

/** What a shared page is about, as link previews (OpenGraph, Twitter cards, oEmbed) describe it. */
export interface ShareCard {
  kind: 'mix' | 'profile';
  title: string;
  description: string;
  /** Absolute URLs. */
  url: string;
  image: string | null;
  audio: string | null;
  /** The compact player other sites may frame (mixes only): oEmbed's html and the Twitter player card. */
  player: string | null;
  authorName: string;
  authorUrl: string;
}

/** OpenGraph and Twitter card tags, a title and the oEmbed discovery link for a card; every value HTML-escaped. */
export function shareTags(card: ShareCard, publicUrl: string): string {
  const meta = (attribute: 'property' | 'name', key: string, value: string | null) =>
    value === null ? '' : `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  const oembed = `${publicUrl}/api/oembed?url=${encodeURIComponent(card.url)}&format=json`;
  return [
    `<title>${escapeHtml(`${card.title} · mixcrate`)}</title>`,
    meta('name', 'description', card.description),
    meta('property', 'og:site_name', 'mixcrate'),
    meta('property', 'og:type', card.kind === 'mix' ? 'music.song' : 'profile'),
    meta('property', 'og:title', card.title),
    meta('property', 'og:description', card.description),
    meta('property', 'og:url', card.url),
    meta('property', 'og:image', card.image),
    card.image ? meta('property', 'og:image:width', '400') + meta('property', 'og:image:height', '400') : '',
    meta('property', 'og:audio', card.audio),
    card.audio ? meta('property', 'og:audio:type', 'audio/mpeg') : '',
    meta('name', 'twitter:card', card.player ? 'player' : 'summary'),
    meta('name', 'twitter:player', card.player),
    card.player
      ? meta('name', 'twitter:player:width', String(EMBED_SIZE.width)) + meta('name', 'twitter:player:height', String(EMBED_SIZE.height))
      : '',
    meta('name', 'twitter:player:stream', card.player ? card.audio : null),
    card.player && card.audio ? meta('name', 'twitter:player:stream:content_type', 'audio/mpeg') : '',
    meta('name', 'twitter:title', card.title),
    meta('name', 'twitter:description', card.description),
    meta('name', 'twitter:image', card.image),
    `<link rel="canonical" href="${escapeHtml(card.url)}" />`,
    // The cover is the page's largest paint: fetch it while the app's JavaScript loads.
    card.image ? `<link rel="preload" as="image" href="${escapeHtml(card.image)}" fetchpriority="high" />` : '',
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembed)}" title="${escapeHtml(card.title)}" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
}

import { describe, expect, test } from 'vitest';
import { type ShareCard, shareTags } from './share-tags.js';

const MIX: ShareCard = {
  kind: 'mix',
  title: 'Sunrise <b>Set</b> & "friends"',
  description: "Mix by DJ 'Q' · Deep House",
  url: 'https://m.example/shared-mix/1',
  image: 'https://m.example/c.jpg?a=1&b=2',
  audio: 'https://m.example/a.mp3',
  player: 'https://m.example/embed/mix/1',
  authorName: 'Q',
  authorUrl: 'https://m.example/shared-profile/q',
};

const lines = (card: ShareCard) => shareTags(card, 'https://m.example').split('\n    ');

describe('link preview tags (docs/sharing-and-embed.md#link-previews): every value escaped', () => {
  test('a mix: title, OpenGraph with image and audio, the Twitter player card, canonical, preload and oEmbed discovery', () => {
    const title = 'Sunrise &lt;b&gt;Set&lt;/b&gt; &amp; &quot;friends&quot;';
    const description = 'Mix by DJ &#39;Q&#39; · Deep House';
    expect(lines(MIX)).toEqual([
      `<title>${title} · mixcrate</title>`,
      `<meta name="description" content="${description}" />`,
      '<meta property="og:site_name" content="mixcrate" />',
      '<meta property="og:type" content="music.song" />',
      `<meta property="og:title" content="${title}" />`,
      `<meta property="og:description" content="${description}" />`,
      '<meta property="og:url" content="https://m.example/shared-mix/1" />',
      '<meta property="og:image" content="https://m.example/c.jpg?a=1&amp;b=2" />',
      '<meta property="og:image:width" content="400" /><meta property="og:image:height" content="400" />',
      '<meta property="og:audio" content="https://m.example/a.mp3" />',
      '<meta property="og:audio:type" content="audio/mpeg" />',
      '<meta name="twitter:card" content="player" />',
      '<meta name="twitter:player" content="https://m.example/embed/mix/1" />',
      '<meta name="twitter:player:width" content="480" /><meta name="twitter:player:height" content="160" />',
      '<meta name="twitter:player:stream" content="https://m.example/a.mp3" />',
      '<meta name="twitter:player:stream:content_type" content="audio/mpeg" />',
      `<meta name="twitter:title" content="${title}" />`,
      `<meta name="twitter:description" content="${description}" />`,
      '<meta name="twitter:image" content="https://m.example/c.jpg?a=1&amp;b=2" />',
      '<link rel="canonical" href="https://m.example/shared-mix/1" />',
      '<link rel="preload" as="image" href="https://m.example/c.jpg?a=1&amp;b=2" fetchpriority="high" />',
      `<link rel="alternate" type="application/json+oembed" href="https://m.example/api/oembed?url=https%3A%2F%2Fm.example%2Fshared-mix%2F1&amp;format=json" title="${title}" />`,
    ]);
    expect(shareTags(MIX, 'https://m.example')).not.toMatch(/<b>|"friends"|'Q'/);
  });

  test('a profile without image: a summary card, no image, audio or player tags', () => {
    const profile: ShareCard = {
      ...MIX,
      kind: 'profile',
      title: 'Ana on mixcrate',
      description: 'DJ on mixcrate',
      image: null,
      audio: null,
      player: null,
    };
    expect(lines(profile)).toEqual([
      '<title>Ana on mixcrate · mixcrate</title>',
      '<meta name="description" content="DJ on mixcrate" />',
      '<meta property="og:site_name" content="mixcrate" />',
      '<meta property="og:type" content="profile" />',
      '<meta property="og:title" content="Ana on mixcrate" />',
      '<meta property="og:description" content="DJ on mixcrate" />',
      '<meta property="og:url" content="https://m.example/shared-mix/1" />',
      '<meta name="twitter:card" content="summary" />',
      '<meta name="twitter:title" content="Ana on mixcrate" />',
      '<meta name="twitter:description" content="DJ on mixcrate" />',
      '<link rel="canonical" href="https://m.example/shared-mix/1" />',
      '<link rel="alternate" type="application/json+oembed" href="https://m.example/api/oembed?url=https%3A%2F%2Fm.example%2Fshared-mix%2F1&amp;format=json" title="Ana on mixcrate" />',
    ]);
  });

  test('a player without audio has no stream tags; audio without a player no stream either', () => {
    const silent = lines({ ...MIX, audio: null });
    expect(silent).toContain('<meta name="twitter:card" content="player" />');
    expect(silent.join('\n')).not.toMatch(/twitter:player:stream|og:audio/);
    const unplayable = lines({ ...MIX, player: null });
    expect(unplayable).toContain('<meta name="twitter:card" content="summary" />');
    expect(unplayable.join('\n')).not.toMatch(/twitter:player/);
    expect(unplayable).toContain('<meta property="og:audio:type" content="audio/mpeg" />');
  });
});

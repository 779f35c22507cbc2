import { describe, expect, test } from 'vitest';
import { EMBED_SIZE, type EmbedFacts, embedPage, embedPath, MIX_NOT_FOUND_HTML } from './embed-page.js';

const facts: EmbedFacts = {
  mixId: 'b5c8b1f2-0000-4000-8000-000000000001',
  title: 'Embed <me>',
  dj: 'DJ <script>alert("x")</script> & Co',
  genre: 'Techno',
  link: 'https://mixcrate.example/shared-mix/b5c8b1f2-0000-4000-8000-000000000001',
  cover: '/media/mix/mix-images/cover.jpg',
  audio: '/media/mix/mix-audio/audio.mp3',
  durationSeconds: 3725,
  script: null,
};

/** The text of the first element matching `pattern`'s one group. */
const part = (html: string, pattern: RegExp) => pattern.exec(html)?.[1];

describe('the embed player page (docs/sharing-and-embed.md#embed-player), the one page any site may frame', () => {
  test('a hostile title and DJ name appear only escaped: the raw text is nowhere in the page', () => {
    const html = embedPage(facts);
    expect(html).not.toContain('<me>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('"x"');
    expect(part(html, /<h1><a [^>]*>([^<]*)<\/a><\/h1>/)).toBe('Embed &lt;me&gt;');
    expect(part(html, /<p class="by">([^<]*)<\/p>/)).toBe('DJ &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co · Techno');
    expect(part(html, /<title>([^<]*)<\/title>/)).toBe('Embed &lt;me&gt; · mixcrate');
    expect(html).toContain('alt="Cover of Embed &lt;me&gt;"');
    expect(html).toContain('aria-label="Play Embed &lt;me&gt;"');
  });

  test('every URL is escaped inside its attribute', () => {
    const html = embedPage({
      ...facts,
      mixId: 'x" onload="a',
      link: 'https://e.example/?a=1&b="2"',
      cover: '/c.jpg" onerror="a',
      audio: '/a.mp3" onplay="a',
      script: '/assets/e.js" onload="a',
    });
    expect(html).not.toMatch(/" on(load|error|play)="/);
    expect(html).toContain('<link rel="canonical" href="https://e.example/?a=1&amp;b=&quot;2&quot;">');
    expect(html).toContain('<main data-mix-id="x&quot; onload=&quot;a" data-duration="3725">');
    expect(html).toContain('<img src="/c.jpg&quot; onerror=&quot;a" alt=');
    expect(html).toContain('<audio controls preload="none" src="/a.mp3&quot; onplay=&quot;a"');
    expect(html).toContain('<script type="module" src="/assets/e.js&quot; onload=&quot;a"></script>');
    expect(html.match(/href="https:\/\/e\.example\/\?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener"/g)).toHaveLength(2);
  });

  test('the page as served: the cover, heading, DJ line, audio, clock and link back; the script only when built', () => {
    const html = embedPage({ ...facts, title: 'Night Drive', dj: 'Ana' });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(
      '<h1><a href="https://mixcrate.example/shared-mix/b5c8b1f2-0000-4000-8000-000000000001" target="_blank" rel="noopener">Night Drive</a></h1>',
    );
    expect(html).toContain('<p class="by">Ana · Techno</p>');
    expect(html).toContain('<img src="/media/mix/mix-images/cover.jpg" alt="Cover of Night Drive" width="136" height="136">');
    expect(html).toContain('<span class="time" hidden>0:00 / 1:02:05</span>');
    expect(html).toContain('>Listen on mixcrate</a>');
    expect(html).not.toContain('<script');
    expect(html.endsWith('</main>\n\n</body>\n</html>')).toBe(true);
    expect(html).toMatch(/<style>\n\*\{box-sizing:border-box\}[^<]+h1\{font-size:16px;[^<]+<\/style>/);
    expect(embedPage({ ...facts, script: '/assets/embed-1.js' })).toContain('<script type="module" src="/assets/embed-1.js"></script>');
  });

  test.each([
    [0, '0:00'],
    [-5, '0:00'],
    [59.4, '0:59'],
    [59.6, '1:00'],
    [605, '10:05'],
    [3600, '1:00:00'],
    [36_061, '10:01:01'],
  ])('a mix of %s seconds shows %s', (seconds, clock) => {
    expect(embedPage({ ...facts, durationSeconds: seconds })).toContain(`<span class="time" hidden>0:00 / ${clock}</span>`);
  });

  test('its size, its path and the page for a mix nobody may see', () => {
    expect(EMBED_SIZE).toEqual({ width: 480, height: 160 });
    expect(embedPath('abc')).toBe('/embed/mix/abc');
    expect(MIX_NOT_FOUND_HTML).toContain('<h1>No mix found :-/</h1>');
    expect(MIX_NOT_FOUND_HTML).toContain('Sorry, that mix may have been removed.');
  });
});

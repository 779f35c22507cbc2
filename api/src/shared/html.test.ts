import { expect, test } from 'vitest';
import { escapeHtml, scriptJson } from './html.js';

test('escapes the five characters that end text or a quoted attribute, and nothing else', () => {
  expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
  );
  expect(escapeHtml('Café · ☕ 12/3 %20')).toBe('Café · ☕ 12/3 %20');
  expect(escapeHtml('')).toBe('');
});

test('an escaped value cannot leave the attribute it is written into', () => {
  const value = `" onmouseover="alert(1)' x='`;
  const attribute = `<meta content="${escapeHtml(value)}">`;
  expect(attribute.match(/"/g)).toHaveLength(2);
  expect(attribute).not.toContain("'");
});

test('JSON inside a script: every < written as \\u003c, so no text can close the script or open a comment', () => {
  const state = { title: '</script><script>alert(1)</script>', note: '<!-- x', plain: 'a & b > c' };
  const json = scriptJson(state);
  expect(json).not.toContain('<');
  expect(json).toBe('{"title":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>","note":"\\u003c!-- x","plain":"a & b > c"}');
  expect(JSON.parse(json)).toEqual(state);
  expect(scriptJson(['/a.js', '/b.js'])).toBe('["/a.js","/b.js"]');
});

import { expect, test } from 'vitest';
import { escapeHtml } from './html.js';

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

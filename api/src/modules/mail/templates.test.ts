import { expect, test } from 'vitest';
import { passwordResetMail } from './templates.js';

test('the password reset mail: its words, the link as text and as an escaped attribute', () => {
  const link = 'https://m.example/reset?token=a&b="c"';
  const mail = passwordResetMail('ana@example.com', link);
  expect(mail.to).toBe('ana@example.com');
  expect(mail.subject).toBe('Reset your mixcrate password');
  expect(mail.text).toBe(
    `Someone asked to reset the password of your mixcrate account.\n\nSet a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
  );
  expect(mail.html).toBe(
    '<p>Someone asked to reset the password of your mixcrate account.</p><p><a href="https://m.example/reset?token=a&amp;b=&quot;c&quot;">Set a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this mail: your password stays as it is.</p>',
  );
});

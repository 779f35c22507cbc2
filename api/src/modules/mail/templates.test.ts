import { expect, test } from 'vitest';
import { claimDecisionMail, passwordResetMail } from './templates.js';

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

test("the claim decision mail: approved or not, the moderator's reason when given, every value escaped in the HTML", () => {
  const claim = { name: 'Kora <Vale>', reason: 'Proof & more', profileUrl: 'https://m.example/u/kora?a=1&b=2' };
  const approved = claimDecisionMail('a@b.co', { ...claim, approved: true, reason: null });
  expect(approved).toEqual({
    to: 'a@b.co',
    subject: 'You are verified as Kora <Vale> on mixcrate',
    text: 'Your claim to be "Kora <Vale>" on mixcrate was approved: your profile now shows you as its verified holder, and its earnings are yours.\n\nhttps://m.example/u/kora?a=1&b=2\n',
    html: '<p>Your claim to be &quot;Kora &lt;Vale&gt;&quot; on mixcrate was approved: your profile now shows you as its verified holder, and its earnings are yours.</p><p><a href="https://m.example/u/kora?a=1&amp;b=2">Your profile</a></p>',
  });
  const refused = claimDecisionMail('a@b.co', { ...claim, approved: false });
  expect(refused.subject).toBe('Your claim on Kora <Vale> was not approved');
  expect(refused.text).toBe(
    `Your claim to be "Kora <Vale>" on mixcrate was not approved.\n\nThe moderator's reason: Proof & more\n\nhttps://m.example/u/kora?a=1&b=2\n`,
  );
  expect(refused.html).toBe(
    `<p>Your claim to be &quot;Kora &lt;Vale&gt;&quot; on mixcrate was not approved.</p><p>The moderator's reason: Proof &amp; more</p><p><a href="https://m.example/u/kora?a=1&amp;b=2">Your profile</a></p>`,
  );
});

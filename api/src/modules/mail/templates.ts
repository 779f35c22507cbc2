import { escapeHtml } from '../../shared/html.js';

export function passwordResetMail(to: string, link: string) {
  return {
    to,
    subject: 'Reset your mixcrate password',
    text: `Someone asked to reset the password of your mixcrate account.\n\nSet a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone asked to reset the password of your mixcrate account.</p><p><a href="${escapeHtml(link)}">Set a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
  };
}

import { escapeHtml } from '../../shared/html.js';

export function passwordResetMail(to: string, link: string) {
  return {
    to,
    subject: 'Reset your mixcrate password',
    text: `Someone asked to reset the password of your mixcrate account.\n\nSet a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone asked to reset the password of your mixcrate account.</p><p><a href="${escapeHtml(link)}">Set a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
  };
}

/** A moderator decided a member's creator or label claim (docs/creators.md#claims). */
export function claimDecisionMail(to: string, claim: { name: string; approved: boolean; reason: string | null; profileUrl: string }) {
  const outcome = claim.approved
    ? `Your claim to be "${claim.name}" on mixcrate was approved: your profile now shows you as its verified holder, and its earnings are yours.`
    : `Your claim to be "${claim.name}" on mixcrate was not approved.`;
  const why = claim.reason ? `\n\nThe moderator's reason: ${claim.reason}` : '';
  return {
    to,
    subject: claim.approved ? `You are verified as ${claim.name} on mixcrate` : `Your claim on ${claim.name} was not approved`,
    text: `${outcome}${why}\n\n${claim.profileUrl}\n`,
    html: `<p>${escapeHtml(outcome)}</p>${claim.reason ? `<p>The moderator's reason: ${escapeHtml(claim.reason)}</p>` : ''}<p><a href="${escapeHtml(claim.profileUrl)}">Your profile</a></p>`,
  };
}

/**
 * What the trust module tells a member about their mix or account (docs/trust.md#what-members-are-told): a notice on
 * their mix with its text word for word, a moderator's decision, a warning, a suspension. Each paragraph is plain text.
 */
export function trustMail(to: string, mail: { subject: string; paragraphs: string[]; link: { href: string; label: string } }) {
  return {
    to,
    subject: mail.subject,
    text: `${mail.paragraphs.join('\n\n')}\n\n${mail.link.label}: ${mail.link.href}\n`,
    html: `${mail.paragraphs.map((paragraph) => `<p style="white-space: pre-wrap">${escapeHtml(paragraph)}</p>`).join('')}<p><a href="${escapeHtml(mail.link.href)}">${escapeHtml(mail.link.label)}</a></p>`,
  };
}

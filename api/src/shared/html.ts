import escapeHtmlText from 'escape-html';

/**
 * Text made safe to place in HTML, between tags and inside a quoted attribute alike: & < > " and ' become entities.
 * Every page and mail the server writes by hand (share cards, the embed player, the test-mode pages, mail) uses this.
 */
export const escapeHtml = (text: string): string => escapeHtmlText(text);

/** JSON for a `<script type="application/json">` or inside a script: no `<` can close the element or open a comment. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

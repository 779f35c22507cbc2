import escapeHtmlText from 'escape-html';

/**
 * Text made safe to place in HTML, between tags and inside a quoted attribute alike: & < > " and ' become entities.
 * Every page and mail the server writes by hand (share cards, the embed player, the test-mode pages, mail) uses this.
 */
export const escapeHtml = (text: string): string => escapeHtmlText(text);

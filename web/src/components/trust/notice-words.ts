import type { CopyrightNoticeStatus, NoticeParty } from '../../gql/graphql';

/** A notice's status in people's words (docs/trust.md#notices). */
export const NOTICE_STATUS: Record<CopyrightNoticeStatus, string> = {
  OPEN: 'Open: the mix is hidden',
  COUNTERED: 'Counter-notice sent: a moderator decides',
  RESTORED: 'Restored: the mix is back',
  REMOVED: 'Removed',
};

const PARTIES: Record<NoticeParty, string> = { FILER: 'The rights holder', OWNER: 'The mix’s owner', MODERATOR: 'A moderator' };

const ACTIONS: Record<string, string> = {
  filed: 'filed the notice',
  countered: 'sent a counter-notice',
  restored: 'restored the mix',
  removed: 'removed the mix',
  removed_with_strike: 'removed the mix and counted a strike',
};

/** One step of a notice's history as a sentence; an action this page does not know yet shows as it is. */
export const noticeStep = (by: NoticeParty, action: string) => {
  // The API names steps as its audit log does (notice.filed, notice.countered, ...).
  const step = action.replace(/^notice\./, '');
  return `${PARTIES[by]} ${ACTIONS[step] ?? step.replaceAll('_', ' ')}`;
};

/** What a report's outcome was, in people's words. */
export const OUTCOMES: Record<string, string> = {
  hide_mix: 'the mix was hidden',
  remove_mix: 'the mix was removed',
  warn: 'the member was warned',
  suspend_member: 'the member was suspended',
};

import { OUTCOMES } from '../../components/trust/notice-words';
import type { NotificationKind } from '../../gql/graphql';

/** What a trust notification says and where it leads (docs/trust.md#what-members-are-told); null for other kinds. */
export function trustNotice(kind: NotificationKind, detail: string | null | undefined): { text: string; to: string } | null {
  const title = detail ? ` “${detail}”` : '';
  const mix = detail ? `“${detail}”` : 'a mix';
  switch (kind) {
    case 'MIX_NOTICE':
      return { text: `A copyright notice hid your mix${title}: read it and answer`, to: '/notices' };
    case 'MIX_HIDDEN':
      return { text: `A moderator hid your mix${title}`, to: '/notices' };
    case 'MIX_REMOVED':
      return { text: `A moderator removed your mix${title}`, to: '/notices' };
    case 'MIX_RESTORED':
      return { text: `Your mix${title} is restored`, to: '/notices' };
    case 'NOTICE_COUNTERED':
      return { text: `The owner of ${mix} answered your copyright notice`, to: '/notices' };
    case 'NOTICE_DECIDED':
      return { text: `A moderator decided your copyright notice on ${mix}`, to: '/notices' };
    case 'WARNED':
      return { text: detail ? `A moderator warned you: ${detail}` : 'A moderator warned you', to: '/reports' };
    case 'REPORT_DECIDED':
      // The detail is the action taken (dismiss, hide_mix, ...), never who took it.
      if (detail === 'dismiss') return { text: 'A moderator looked at your report and dismissed it', to: '/reports' };
      return { text: `A moderator acted on your report${detail ? `: ${OUTCOMES[detail] ?? detail}` : ''}`, to: '/reports' };
    default:
      return null;
  }
}

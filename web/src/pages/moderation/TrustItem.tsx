import { useMutation } from '@apollo/client/react';
import { MODERATION_REASON_MAX } from '@mixcrate/api/rules';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { OUTCOMES } from '../../components/trust/notice-words';
import { reasonLabel } from '../../components/trust/ReportDialog';
import { ModerateTrustItemDocument, type TrustAction, type TrustDetailsFieldsFragment } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import styles from './Moderation.module.css';

/** The actions the API takes for each kind of trust item and target (docs/trust.md#moderation). */
const REPORT_MIX: readonly TrustAction[] = ['DISMISS', 'HIDE_MIX', 'REMOVE_MIX', 'WARN', 'SUSPEND_MEMBER'];
const REPORT_MEMBER: readonly TrustAction[] = ['DISMISS', 'WARN', 'SUSPEND_MEMBER'];
const NOTICE: readonly TrustAction[] = ['RESTORE', 'REMOVE', 'REMOVE_AND_STRIKE'];

const ACTION_LABELS: Record<TrustAction, string> = {
  DISMISS: 'Dismiss',
  HIDE_MIX: 'Hide mix',
  REMOVE_MIX: 'Remove mix',
  WARN: 'Warn member',
  SUSPEND_MEMBER: 'Suspend member',
  RESTORE: 'Restore mix',
  REMOVE: 'Remove mix',
  REMOVE_AND_STRIKE: 'Remove and strike',
};

export const actionsFor = (kind: string, trust: TrustDetailsFieldsFragment): readonly TrustAction[] => {
  if (kind === 'copyright_notice') return NOTICE;
  return trust.targetKind === 'MIX' ? REPORT_MIX : REPORT_MEMBER;
};

/** The day after today, as a date input's minimum: a suspension ends in the future. */
const tomorrow = () => new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

function Lines({ label, lines, empty }: { label: string; lines: readonly string[]; empty: string }) {
  return (
    <div>
      <strong>{label}</strong>
      {lines.length === 0 ? (
        <p className={styles.muted}>{empty}</p>
      ) : (
        <ol className={styles.links} aria-label={label}>
          {lines.map((line, index) => (
            // Lines may repeat (a track played twice); their place in the list is what tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is read-only and never reordered
            <li key={`${index}-${line}`}>{line}</li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** What a moderator reads beside a report or a notice: the target, the claim, the tracks, earlier reports and strikes. */
export function TrustFacts({ trust }: { trust: TrustDetailsFieldsFragment }) {
  const isMix = trust.targetKind === 'MIX';
  const target = trust.targetName ?? (isMix ? 'a mix no longer here' : 'a member no longer here');
  return (
    <div className={styles.facts}>
      <p>
        {isMix ? 'Mix: ' : 'Member: '}
        {isMix && trust.targetName ? <Link to={`/mix/${trust.targetId}`}>{target}</Link> : target}
        {trust.mixState ? ` · ${trust.mixState === 'HIDDEN' ? 'hidden' : 'removed'}` : ''}
        {isMix && trust.ownerName ? ` · by ${trust.ownerName}` : ''}
        {trust.memberSuspended
          ? ` · ${isMix ? 'owner ' : ''}suspended${trust.memberSuspendedUntil ? ` until ${formatDate(trust.memberSuspendedUntil)}` : ''}`
          : ''}
      </p>
      {trust.reason ? (
        <p>
          Reason: <strong>{reasonLabel(trust.reason)}</strong>
          {trust.note ? ` · “${trust.note}”` : ''}
        </p>
      ) : null}
      {trust.notice ? (
        <div>
          <p>
            Notice from <strong>{trust.notice.claimedName}</strong>
            {trust.notice.trackTitle ? ` for “${trust.notice.trackTitle}”` : ''}:
          </p>
          <blockquote className={styles.quote}>{trust.notice.text}</blockquote>
          {trust.notice.counterText ? (
            <>
              <p>Counter-notice from the owner{trust.notice.counteredAt ? ` (${formatDate(trust.notice.counteredAt)})` : ''}:</p>
              <blockquote className={styles.quote}>{trust.notice.counterText}</blockquote>
            </>
          ) : (
            <p className={styles.muted}>No counter-notice yet.</p>
          )}
        </div>
      ) : null}
      {isMix ? (
        <div className={styles.columns}>
          <Lines label="Recognition found" lines={trust.recognisedTracks} empty="Nothing recognised." />
          <Lines label="Tracklist" lines={trust.tracklist} empty="No tracklist." />
        </div>
      ) : null}
      <p>
        Earlier reports: <strong>{trust.earlierReports}</strong> · Upheld copyright strikes: <strong>{trust.strikes}</strong>
      </p>
      {trust.reportHistory.length > 0 ? (
        <ul className={styles.links} aria-label="Earlier reports">
          {trust.reportHistory.map((entry) => (
            <li key={`${entry.createdAt}-${entry.reason}`}>
              {formatDate(entry.createdAt)}: {reasonLabel(entry.reason)}, {entry.status.toLowerCase()}
              {entry.outcome ? ` (${OUTCOMES[entry.outcome] ?? entry.outcome})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The actions on an open report or notice (docs/trust.md#moderation): a reason, for suspensions
 * an optional end date, and one button per action the API takes for this kind and target.
 */
export function TrustActions({
  itemId,
  kind,
  trust,
  onDecided,
}: {
  itemId: string;
  kind: string;
  trust: TrustDetailsFieldsFragment;
  onDecided: () => void;
}) {
  const ids = useId();
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [moderate, { loading, error }] = useMutation(ModerateTrustItemDocument, { refetchQueries: ['HeldMixes', 'SuspendedMembers'] });
  const actions = actionsFor(kind, trust);
  async function act(action: TrustAction) {
    const suspendedUntil = action === 'SUSPEND_MEMBER' && until ? new Date(`${until}T00:00:00Z`).toISOString() : null;
    const done = await moderate({ variables: { input: { itemId, action, reason: reason.trim() || null, suspendedUntil } } }).catch(
      () => null,
    );
    if (done) onDecided();
  }
  return (
    <>
      <div className={styles.actions}>
        <label className={styles.field}>
          Reason (told to the member, kept in the audit log)
          <input value={reason} maxLength={MODERATION_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
        </label>
        {actions.includes('SUSPEND_MEMBER') ? (
          <label className={styles.field} htmlFor={`${ids}-until`}>
            Suspend until (empty: until restored)
            <input id={`${ids}-until`} type="date" min={tomorrow()} value={until} onChange={(event) => setUntil(event.target.value)} />
          </label>
        ) : null}
      </div>
      <fieldset className={styles.buttonRow} disabled={loading}>
        <legend className={styles.muted}>Decide</legend>
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'DISMISS' || action === 'RESTORE' ? buttons.secondary : buttons.primary}
            onClick={() => void act(action)}
          >
            {ACTION_LABELS[action]}
          </button>
        ))}
      </fieldset>
      {error ? (
        <div className={styles.alert} role="alert">
          {serverMessage(error, 'The decision could not be saved. Please try again.')}
        </div>
      ) : null}
    </>
  );
}

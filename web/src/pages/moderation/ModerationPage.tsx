import { useMutation, useQuery } from '@apollo/client/react';
import { MEMBER_REFERENCE_MAX, MODERATION_REASON_MAX } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  AuditLogDocument,
  DecideModerationItemDocument,
  ModerationAccessDocument,
  type ModerationDecision,
  ModerationQueueDocument,
  type ModerationQueueQuery,
  ModeratorsDocument,
  type QueueStatus,
  SetModeratorDocument,
} from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import styles from './Moderation.module.css';
import { Pager } from './Pager';
import { TrustActions, TrustFacts } from './TrustItem';
import { HeldMixesSection, StrikePolicySection, SuspendedSection } from './TrustSections';

type Item = ModerationQueueQuery['moderationQueue']['items'][number];

/** What each kind of queue item is, in people's words; a kind this page does not know yet shows as it is. */
const KIND_LABELS: Record<string, string> = {
  creator_claim: 'Creator claim',
  claim_dispute: 'Disputed claim',
  reference_duplicate: 'Reference matches another owner',
  report: 'Report',
  copyright_notice: 'Copyright notice',
};

function QueueItem({ item, onDecided }: { item: Item; onDecided: () => void }) {
  const ids = useId();
  const [reason, setReason] = useState('');
  const [decide, { loading, error }] = useMutation(DecideModerationItemDocument);
  const open = item.status === 'OPEN';
  async function send(decision: ModerationDecision) {
    await decide({ variables: { input: { itemId: item.id, decision, reason: reason.trim() || null } } }).catch(() => undefined);
    onDecided();
  }
  return (
    <li className={styles.item} aria-labelledby={`${ids}-kind`}>
      <span id={`${ids}-kind`} className={styles.kind}>
        {KIND_LABELS[item.kind] ?? item.kind}
      </span>
      <p className={styles.summary}>{item.summary}</p>
      {item.links.length > 0 ? (
        <ul className={styles.links} aria-label="Evidence">
          {item.links.map((link) => (
            <li key={link}>
              <a href={link} target="_blank" rel="noreferrer noopener">
                {link}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <p className={styles.muted}>
        {item.raisedBy?.userName ? (
          <>
            From <Link to={`/profile/${item.raisedBy.userName}`}>@{item.raisedBy.userName}</Link>,{' '}
          </>
        ) : null}
        {formatDate(item.openedAt)}
        {item.decidedAt ? ` · ${item.status.toLowerCase()} ${formatDate(item.decidedAt)}` : ''}
        {item.reason ? ` · ${item.reason}` : ''}
      </p>
      {item.trust ? <TrustFacts trust={item.trust} /> : null}
      {open && item.trust ? <TrustActions itemId={item.id} kind={item.kind} trust={item.trust} onDecided={onDecided} /> : null}
      {open && !item.trust ? (
        <div className={styles.actions}>
          <label className={styles.field}>
            Reason (told to the member, kept in the audit log)
            <input value={reason} maxLength={MODERATION_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
          </label>
          <button type="button" className={buttons.primary} disabled={loading} onClick={() => void send('APPROVE')}>
            Approve
          </button>
          <button type="button" className={buttons.secondary} disabled={loading} onClick={() => void send('REJECT')}>
            Reject
          </button>
        </div>
      ) : null}
      {error && !item.trust ? (
        <div className={styles.alert} role="alert">
          {serverMessage(error, 'The decision could not be saved. Please try again.')}
        </div>
      ) : null}
    </li>
  );
}

function Queue() {
  const ids = useId();
  const [status, setStatus] = useState<QueueStatus>('OPEN');
  const [page, setPage] = useState(0);
  const { data, loading, error, refetch } = useQuery(ModerationQueueDocument, {
    variables: { status, page },
    fetchPolicy: 'cache-and-network',
  });
  const queue = data?.moderationQueue;
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Queue
      </h2>
      <label className={styles.field}>
        Show
        <select
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as QueueStatus);
            setPage(0);
          }}
        >
          <option value={'OPEN'}>Waiting for a decision</option>
          <option value={'APPROVED'}>Approved</option>
          <option value={'REJECTED'}>Rejected</option>
        </select>
      </label>
      {loading && !queue ? <Spinner label="Loading the queue" size="small" /> : null}
      {error ? <p className={styles.text}>The queue could not be loaded. Please try again later.</p> : null}
      {queue && queue.items.length === 0 ? <p className={styles.text}>Nothing here.</p> : null}
      {queue && queue.items.length > 0 ? (
        <ul className={styles.items} aria-label="Queue items">
          {queue.items.map((item) => (
            <QueueItem key={item.id} item={item} onDecided={() => void refetch().catch(() => undefined)} />
          ))}
        </ul>
      ) : null}
      {queue ? <Pager page={page} total={queue.totalCount} onPage={setPage} label="Queue pages" /> : null}
    </section>
  );
}

function ModeratorsSection() {
  const ids = useId();
  const list = useQuery(ModeratorsDocument, { fetchPolicy: 'cache-and-network' });
  const [setModerator, { loading }] = useMutation(SetModeratorDocument);
  const [member, setMember] = useState('');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function change(grant: boolean, who: string) {
    setMessage(null);
    try {
      const result = await setModerator({ variables: { input: { member: who, grant, reason: reason.trim() || null } } });
      const changed = result.data?.setModerator;
      setMessage({ ok: true, text: changed ? `${who} is ${grant ? 'now' : 'no longer'} a moderator.` : 'Nothing changed.' });
      setMember('');
      await list.refetch();
    } catch (error) {
      setMessage({ ok: false, text: serverMessage(error, 'The role could not be changed. Please try again.') });
    }
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (member.trim()) void change(true, member.trim());
  }
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Moderators
      </h2>
      <form className={styles.actions} onSubmit={submit}>
        <label className={styles.field}>
          Member (user name or e-mail)
          <input value={member} maxLength={MEMBER_REFERENCE_MAX} onChange={(event) => setMember(event.target.value)} required />
        </label>
        <label className={styles.field}>
          Reason
          <input value={reason} maxLength={MODERATION_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
        </label>
        <button type="submit" className={buttons.primary} disabled={loading}>
          Make moderator
        </button>
      </form>
      {message ? (
        <div className={message.ok ? styles.notice : styles.alert} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </div>
      ) : null}
      {list.data?.moderators.length === 0 ? <p className={styles.text}>No moderators yet.</p> : null}
      <ul className={styles.items} aria-label="Moderators">
        {list.data?.moderators.map((moderator) => (
          <li key={moderator.id} className={styles.item}>
            <span>
              {moderator.displayName || moderator.userName} <span className={styles.muted}>{moderator.email}</span>
            </span>
            <button
              type="button"
              className={buttons.secondary}
              disabled={loading}
              onClick={() => void change(false, moderator.userName ?? moderator.email)}
            >
              Revoke moderator
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AuditSection() {
  const ids = useId();
  const [page, setPage] = useState(0);
  const { data, loading, error } = useQuery(AuditLogDocument, { variables: { page }, fetchPolicy: 'cache-and-network' });
  const log = data?.auditLog;
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Audit log
      </h2>
      {loading && !log ? <Spinner label="Loading the audit log" size="small" /> : null}
      {error ? <p className={styles.text}>The audit log could not be loaded. Please try again later.</p> : null}
      {log && log.items.length === 0 ? <p className={styles.text}>No moderator or operator has acted yet.</p> : null}
      {log && log.items.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        <section className={styles.tableWrap} aria-label="Audit log table" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {log.items.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDate(entry.at)}</td>
                  <td>{entry.actorName}</td>
                  <td>{entry.action}</td>
                  <td>{entry.targetName ?? entry.targetKind}</td>
                  <td>{entry.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {log ? <Pager page={page} total={log.totalCount} onPage={setPage} label="Audit log pages" /> : null}
    </section>
  );
}

/**
 * `/moderation` (docs/moderation.md#the-page): the queue for moderators and operators; operators also grant and revoke
 * moderators and page through the audit log. Everyone else is told the page is not theirs.
 */
export function ModerationPage() {
  const access = useQuery(ModerationAccessDocument);
  const canModerate = access.data?.canModerate ?? false;
  const operator = access.data?.canReadLedger ?? false;
  return (
    <AppShell label="Moderation" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>Moderation</h1>
        {access.loading ? <Spinner label="Loading" /> : null}
        {!access.loading && !canModerate ? <p className={styles.text}>This page is for moderators and operators.</p> : null}
        {canModerate ? <Queue /> : null}
        {canModerate ? <HeldMixesSection /> : null}
        {canModerate ? <SuspendedSection /> : null}
        {operator ? <StrikePolicySection /> : null}
        {operator ? <ModeratorsSection /> : null}
        {operator ? <AuditSection /> : null}
      </div>
    </AppShell>
  );
}

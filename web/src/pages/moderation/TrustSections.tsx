import { useMutation, useQuery } from '@apollo/client/react';
import { MODERATION_REASON_MAX, STRIKE_LIMIT_BOUNDS, STRIKE_WINDOW_DAYS_BOUNDS } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  HeldMixesDocument,
  RestoreMemberDocument,
  RestoreMixDocument,
  SetStrikePolicyDocument,
  StrikePolicyDocument,
  SuspendedMembersDocument,
} from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import styles from './Moderation.module.css';
import { Pager } from './Pager';

type Message = { ok: boolean; text: string } | null;

function Said({ message }: { message: Message }) {
  if (!message) return null;
  return (
    <div className={message.ok ? styles.notice : styles.alert} role={message.ok ? 'status' : 'alert'}>
      {message.text}
    </div>
  );
}

/** Mixes under a hold, newest first, each with Restore (docs/trust.md#hidden-means-hidden). */
export function HeldMixesSection() {
  const ids = useId();
  const [page, setPage] = useState(0);
  const { data, loading, error, refetch } = useQuery(HeldMixesDocument, { variables: { page }, fetchPolicy: 'cache-and-network' });
  const [restore, restoring] = useMutation(RestoreMixDocument);
  const [message, setMessage] = useState<Message>(null);
  const held = data?.heldMixes;
  async function restoreMix(mixId: string, title: string) {
    setMessage(null);
    try {
      await restore({ variables: { input: { id: mixId } } });
      setMessage({ ok: true, text: `${title} is restored.` });
      await refetch();
    } catch (failure) {
      setMessage({ ok: false, text: serverMessage(failure, 'The mix could not be restored. Please try again.') });
    }
  }
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Hidden and removed mixes
      </h2>
      {loading && !held ? <Spinner label="Loading held mixes" size="small" /> : null}
      {error && !held ? <p className={styles.text}>The held mixes could not be loaded. Please try again later.</p> : null}
      {held && held.items.length === 0 ? <p className={styles.text}>No mix is hidden or removed.</p> : null}
      <Said message={message} />
      {held && held.items.length > 0 ? (
        <ul className={styles.items} aria-label="Held mixes">
          {held.items.map((mix) => (
            <li key={mix.mixId} className={styles.item}>
              <span>
                <Link to={`/mix/${mix.mixId}`}>{mix.title}</Link> by {mix.ownerName} ·{' '}
                <strong>{mix.state === 'HIDDEN' ? 'hidden' : 'removed'}</strong>
                {mix.at ? ` ${formatDate(mix.at)}` : ''}
                {mix.reason ? <span className={styles.muted}> · {mix.reason}</span> : null}
              </span>
              <button
                type="button"
                className={buttons.secondary}
                disabled={restoring.loading}
                onClick={() => void restoreMix(mix.mixId, mix.title)}
              >
                Restore {mix.title}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {held ? <Pager page={page} total={held.totalCount} onPage={setPage} label="Held mix pages" /> : null}
    </section>
  );
}

/** Suspended members, newest first, each with Restore (docs/trust.md#suspensions). */
export function SuspendedSection() {
  const ids = useId();
  const [page, setPage] = useState(0);
  const { data, loading, error, refetch } = useQuery(SuspendedMembersDocument, { variables: { page }, fetchPolicy: 'cache-and-network' });
  const [restore, restoring] = useMutation(RestoreMemberDocument);
  const [message, setMessage] = useState<Message>(null);
  const members = data?.suspendedMembers;
  async function restoreMember(id: string, name: string) {
    setMessage(null);
    try {
      await restore({ variables: { input: { id } } });
      setMessage({ ok: true, text: `${name} is restored.` });
      await refetch();
    } catch (failure) {
      setMessage({ ok: false, text: serverMessage(failure, 'The member could not be restored. Please try again.') });
    }
  }
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Suspended members
      </h2>
      {loading && !members ? <Spinner label="Loading suspended members" size="small" /> : null}
      {error && !members ? <p className={styles.text}>The suspended members could not be loaded. Please try again later.</p> : null}
      {members && members.items.length === 0 ? <p className={styles.text}>Nobody is suspended.</p> : null}
      <Said message={message} />
      {members && members.items.length > 0 ? (
        <ul className={styles.items} aria-label="Suspended members">
          {members.items.map((member) => {
            const name = member.displayName || member.userName || 'A member';
            return (
              <li key={member.id} className={styles.item}>
                <span>
                  {name}
                  {member.userName ? ` (@${member.userName})` : ''} · since {formatDate(member.suspendedAt)}
                  {member.suspendedUntil ? `, until ${formatDate(member.suspendedUntil)}` : ', until restored'}
                  {member.reason ? <span className={styles.muted}> · {member.reason}</span> : null}
                </span>
                <button
                  type="button"
                  className={buttons.secondary}
                  disabled={restoring.loading}
                  onClick={() => void restoreMember(member.id, name)}
                >
                  Restore {name}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {members ? <Pager page={page} total={members.totalCount} onPage={setPage} label="Suspended member pages" /> : null}
    </section>
  );
}

/** Operators: how many upheld strikes within how many days block uploads (docs/trust.md#repeat-infringers). */
export function StrikePolicySection() {
  const ids = useId();
  const { data, loading, error } = useQuery(StrikePolicyDocument);
  const [save, saving] = useMutation(SetStrikePolicyDocument);
  // null until edited: the field shows the saved number; an emptied field stays empty.
  const [limit, setLimit] = useState<string | null>(null);
  const [days, setDays] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<Message>(null);
  const policy = data?.strikePolicy;
  const shownLimit = limit ?? String(policy?.strikeLimit ?? '');
  const shownDays = days ?? String(policy?.windowDays ?? '');
  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    try {
      const result = await save({
        variables: { input: { strikeLimit: Number(shownLimit), windowDays: Number(shownDays), reason: reason.trim() || null } },
      });
      const set = result.data?.setStrikePolicy;
      setMessage({ ok: true, text: set ? `Uploads now stop at ${set.strikeLimit} strikes within ${set.windowDays} days.` : 'Saved.' });
      setReason('');
    } catch (failure) {
      setMessage({ ok: false, text: serverMessage(failure, 'The strike policy could not be saved. Please try again.') });
    }
  }
  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Strike policy
      </h2>
      {loading && !policy ? <Spinner label="Loading the strike policy" size="small" /> : null}
      {error && !policy ? <p className={styles.text}>The strike policy could not be loaded. Please try again later.</p> : null}
      {policy ? (
        <form className={styles.actions} onSubmit={submit}>
          <label className={styles.field}>
            Strikes that block uploads
            <input
              type="number"
              required
              min={STRIKE_LIMIT_BOUNDS.min}
              max={STRIKE_LIMIT_BOUNDS.max}
              value={shownLimit}
              onChange={(event) => setLimit(event.target.value)}
            />
          </label>
          <label className={styles.field}>
            Within (days)
            <input
              type="number"
              required
              min={STRIKE_WINDOW_DAYS_BOUNDS.min}
              max={STRIKE_WINDOW_DAYS_BOUNDS.max}
              value={shownDays}
              onChange={(event) => setDays(event.target.value)}
            />
          </label>
          <label className={styles.field}>
            Reason
            <input value={reason} maxLength={MODERATION_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
          </label>
          <button type="submit" className={buttons.primary} disabled={saving.loading}>
            Save strike policy
          </button>
        </form>
      ) : null}
      <Said message={message} />
    </section>
  );
}

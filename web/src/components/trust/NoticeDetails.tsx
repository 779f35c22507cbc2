import { useMutation } from '@apollo/client/react';
import { NOTICE_TEXT_MAX } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import type { NoticeFieldsFragment } from '../../gql/graphql';
import { CounterNoticeDocument } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import buttons from '../Button.module.css';
import { NOTICE_STATUS, noticeStep } from './notice-words';
import styles from './Trust.module.css';

/** Every step of a notice, oldest first, as both parties see it. */
export function NoticeHistory({ notice }: { notice: NoticeFieldsFragment }) {
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-history`}>
      <h3 id={`${ids}-history`} className={styles.panelTitle}>
        History
      </h3>
      <ol className={styles.history} aria-labelledby={`${ids}-history`}>
        {notice.history.map((step) => (
          <li key={`${step.at}-${step.action}`}>
            {formatDate(step.at)}: {noticeStep(step.by, step.action)}
            {step.reason ? ` (“${step.reason}”)` : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The owner's answer to an open notice (docs/trust.md#notices): why the mix may stay. Sent once; a
 * moderator then decides, and the form gives way to what was sent.
 */
export function CounterNoticeForm({ notice }: { notice: NoticeFieldsFragment }) {
  const ids = useId();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const [send, { loading, error }] = useMutation(CounterNoticeDocument);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setMissing(true);
      return;
    }
    await send({ variables: { input: { noticeId: notice.id, text: text.trim() } } }).catch(() => undefined);
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className={styles.panelTitle}>
        Counter-notice
      </h3>
      <p className={styles.muted}>
        If the mix may stay (you hold the rights, have a licence, or the track is not in it), say so here. A moderator reads both sides and
        decides; the rights holder sees your answer.
      </p>
      <label className={styles.field}>
        Why the mix may stay
        <textarea
          rows={5}
          value={text}
          maxLength={NOTICE_TEXT_MAX}
          aria-invalid={missing && !text.trim() ? true : undefined}
          aria-describedby={missing && !text.trim() ? `${ids}-missing` : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {missing && !text.trim() ? (
        <p id={`${ids}-missing`} className={styles.alert} role="alert">
          Write the counter-notice: why the mix may stay.
        </p>
      ) : null}
      {error ? (
        <p className={styles.alert} role="alert">
          {serverMessage(error, 'The counter-notice could not be sent. Please try again.')}
        </p>
      ) : null}
      <div className={styles.row}>
        <button type="submit" className={buttons.primary} disabled={loading}>
          {loading ? 'Sending…' : 'Send counter-notice'}
        </button>
      </div>
    </form>
  );
}

/** A notice: who filed it for which track, its words, the counter-notice if any, its status and its history. */
export function NoticeDetails({ notice, headingLevel = 2 }: { notice: NoticeFieldsFragment; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={styles.form}>
      <Heading className={styles.panelTitle}>
        Copyright notice from {notice.claimedName}
        {notice.trackTitle ? ` for “${notice.trackTitle}”` : ''}
      </Heading>
      <p className={styles.muted}>
        Filed {formatDate(notice.createdAt)} · {NOTICE_STATUS[notice.status]}
      </p>
      <blockquote className={styles.quote}>{notice.text}</blockquote>
      {notice.counterText ? (
        <>
          <p className={styles.muted}>Counter-notice{notice.counteredAt ? ` of ${formatDate(notice.counteredAt)}` : ''}:</p>
          <blockquote className={styles.quote}>{notice.counterText}</blockquote>
        </>
      ) : null}
      {notice.isOwner && notice.status === 'OPEN' ? <CounterNoticeForm notice={notice} /> : null}
      <NoticeHistory notice={notice} />
    </div>
  );
}

import { useMutation, useQuery } from '@apollo/client/react';
import { NOTICE_TEXT_MAX } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { FileCopyrightNoticeDocument, NoticeTracksDocument } from '../../gql/graphql';
import { serverMessage } from '../../lib/server-message';
import buttons from '../Button.module.css';
import styles from './Trust.module.css';

/**
 * "File a copyright notice" on a mix page (docs/trust.md#notices): shown only to a member verified for a
 * track the mix's tracklist holds (the track's name holders name them), never to the mix's owner. The API checks the
 * same again, and recognition as well.
 */
export function FileNoticeForm({ mixId }: { mixId: string }) {
  const ids = useId();
  const { data } = useQuery(NoticeTracksDocument, { variables: { mixId } });
  const [open, setOpen] = useState(false);
  const [trackId, setTrackId] = useState('');
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const [file, { data: filed, loading, error }] = useMutation(FileCopyrightNoticeDocument);
  const me = data?.me;
  const mix = data?.mix;
  if (!me?.userName || me.verifiedNames.length === 0 || !mix || mix.isOwner) return null;
  const own = mix.tracks.filter((entry) => entry.track.nameHolders.some((holder) => holder.userName === me.userName));
  if (own.length === 0) return null;
  const chosen = trackId || own[0].track.id;
  const notice = filed?.fileCopyrightNotice;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setMissing(true);
      return;
    }
    await file({ variables: { input: { mixId, trackId: chosen, text: text.trim() } } }).catch(() => undefined);
  }

  if (notice)
    return (
      <p className={styles.status} role="status">
        Your notice was filed: the mix is hidden from everyone but its owner while a moderator decides.{' '}
        <Link to={`/notices/${notice.id}`}>Follow the notice</Link>.
      </p>
    );
  if (!open)
    return (
      <div className={styles.row}>
        <button type="button" className={buttons.secondary} aria-expanded={false} onClick={() => setOpen(true)}>
          File a copyright notice
        </button>
        <span className={styles.muted}>This mix plays {own.length === 1 ? 'a track' : 'tracks'} you are verified for.</span>
      </div>
    );
  return (
    <form className={styles.panel} onSubmit={submit} noValidate aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.panelTitle}>
        File a copyright notice
      </h2>
      <p className={styles.muted}>
        The mix is hidden from everyone but its owner at once; its owner is told your words and may answer. A moderator decides.
      </p>
      <label className={styles.field}>
        Your track in this mix
        <select value={chosen} onChange={(event) => setTrackId(event.target.value)}>
          {own.map((entry) => (
            <option key={entry.track.id} value={entry.track.id}>
              {entry.position}. {entry.track.title}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        The notice (told to the mix’s owner word for word)
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
          Write the notice: what is yours and where it plays.
        </p>
      ) : null}
      {error ? (
        <p className={styles.alert} role="alert">
          {serverMessage(error, 'The notice could not be filed. Please try again.')}
        </p>
      ) : null}
      <div className={styles.row}>
        <button type="submit" className={buttons.primary} disabled={loading}>
          {loading ? 'Filing…' : 'File notice'}
        </button>
        <button type="button" className={buttons.secondary} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

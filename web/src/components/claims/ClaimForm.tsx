import { useMutation, useQuery } from '@apollo/client/react';
import { CLAIM_NOTE_MAX, TRACK_CREATOR_MAX } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import { ClaimCreatorDocument, type ClaimStatus, type ClaimSubject, MyCreatorClaimsDocument } from '../../gql/graphql';
import { serverMessage } from '../../lib/server-message';
import buttons from '../Button.module.css';
import styles from './ClaimForm.module.css';

export interface ClaimableName {
  subject: ClaimSubject;
  name: string;
}

const STATUS_WORDS: Record<ClaimStatus, string> = {
  PENDING: 'waiting for a moderator',
  APPROVED: 'verified',
  REJECTED: 'not approved',
  REVOKED: 'passed to another member',
};

/** The member's own claims and where each stands (the profile shows them to its owner). */
export function MyClaims() {
  const { data } = useQuery(MyCreatorClaimsDocument, { fetchPolicy: 'cache-and-network' });
  const claims = data?.myCreatorClaims ?? [];
  if (claims.length === 0) return null;
  return (
    <ul className={styles.claims} aria-label="Your claims">
      {claims.map((claim) => (
        <li key={claim.id}>
          {claim.subjectName} ({claim.subject === 'LABEL' ? 'label' : 'creator'}): {STATUS_WORDS[claim.status]}
          {claim.isDispute && claim.status === 'PENDING' ? ', held by another member: a moderator settles it' : ''}
          {claim.reason ? ` (${claim.reason})` : ''}
        </li>
      ))}
    </ul>
  );
}

/**
 * "I am this creator / label" (docs/creators.md#claims): a disclosure with the name (the track's credits to choose
 * from, or typed on the profile), 1 to 5 evidence links one per line, and a note. A moderator decides.
 */
export function ClaimForm({ names, trackId }: { names?: ClaimableName[]; trackId?: string }) {
  const ids = useId();
  const [choice, setChoice] = useState(0);
  const [subject, setSubject] = useState<ClaimSubject>('CREATOR');
  const [typed, setTyped] = useState('');
  const [evidence, setEvidence] = useState('');
  const [note, setNote] = useState('');
  const [claim, { loading }] = useMutation(ClaimCreatorDocument, { refetchQueries: [MyCreatorClaimsDocument] });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const chosen = names?.[choice];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const links = evidence
      .split(/\s+/)
      .map((link) => link.trim())
      .filter(Boolean);
    try {
      const result = await claim({
        variables: {
          input: {
            subject: chosen ? chosen.subject : subject,
            name: chosen ? chosen.name : typed.trim(),
            trackId: trackId ?? null,
            evidence: links,
            note: note.trim() || null,
          },
        },
      });
      const sent = result.data?.claimCreator;
      setMessage({
        ok: true,
        text: sent?.isDispute
          ? `Sent. ${sent.subjectName} is held by another member: a moderator will look at both.`
          : `Sent. A moderator will look at your claim on ${sent?.subjectName ?? 'this name'}; you will get a notification and an e-mail.`,
      });
      setEvidence('');
      setNote('');
    } catch (error) {
      setMessage({ ok: false, text: serverMessage(error, 'The claim could not be sent. Please try again.') });
    }
  }

  return (
    <details className={styles.claim}>
      <summary className={styles.summary}>{names ? 'Is this you? Claim a name on this track' : 'Claim a creator or label name'}</summary>
      <form className={styles.form} onSubmit={(event) => void submit(event)} aria-labelledby={`${ids}-title`}>
        <span id={`${ids}-title`} className={styles.hint}>
          Claim a catalogue creator or label as you. A moderator checks your evidence; once verified, the name's earnings and its reference
          audio are yours.
        </span>
        {names ? (
          <label className={styles.field}>
            Name
            <select value={choice} onChange={(event) => setChoice(Number(event.target.value))}>
              {names.map((name, index) => (
                <option key={`${name.subject}-${name.name}`} value={index}>
                  {name.name} ({name.subject === 'LABEL' ? 'label' : 'creator'})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <>
            <label className={styles.field}>
              Kind
              <select value={subject} onChange={(event) => setSubject(event.target.value as ClaimSubject)}>
                <option value={'CREATOR'}>Creator (artist)</option>
                <option value={'LABEL'}>Label</option>
              </select>
            </label>
            <label className={styles.field}>
              Name, as tracks credit it
              <input value={typed} maxLength={TRACK_CREATOR_MAX} required onChange={(event) => setTyped(event.target.value)} />
            </label>
          </>
        )}
        <label className={styles.field}>
          Evidence links
          <span className={styles.hint}>1 to 5 links, one per line: your site, a label page, a verified social account.</span>
          <textarea value={evidence} rows={3} required onChange={(event) => setEvidence(event.target.value)} />
        </label>
        <label className={styles.field}>
          Note for the moderator
          <textarea value={note} rows={2} maxLength={CLAIM_NOTE_MAX} onChange={(event) => setNote(event.target.value)} />
        </label>
        <button type="submit" className={buttons.primary} disabled={loading}>
          Send claim
        </button>
        {message ? (
          <div className={message.ok ? styles.notice : styles.alert} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </div>
        ) : null}
      </form>
    </details>
  );
}

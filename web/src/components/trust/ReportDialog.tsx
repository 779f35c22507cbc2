import { useMutation } from '@apollo/client/react';
import { REPORT_NOTE_MAX } from '@mixcrate/api/rules';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ReportContentDocument, type ReportReason, type ReportTargetKind } from '../../gql/graphql';
import { serverMessage, serverStatus } from '../../lib/server-message';
import buttons from '../Button.module.css';
import styles from './Trust.module.css';

/** The reasons a member picks from, in people's words (docs/trust.md#reports). */
export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'COPYRIGHT', label: 'Copyright' },
  { value: 'ABUSE', label: 'Abuse' },
  { value: 'SPAM', label: 'Spam' },
  { value: 'IMPERSONATION', label: 'Impersonation' },
  { value: 'OTHER', label: 'Other' },
];

export const reasonLabel = (reason: ReportReason) => REPORT_REASONS.find((entry) => entry.value === reason)?.label ?? reason;

type Outcome = { ok: true } | { ok: false; status: number | undefined; text: string };

/** What a refused report says: the API's words, with the way to the open report when there already is one. */
function Refusal({ outcome }: { outcome: Extract<Outcome, { ok: false }> }) {
  return (
    <p className={styles.alert} role="alert">
      {outcome.status === 409 ? 'Already reported: ' : outcome.status === 429 ? 'Too many reports: ' : ''}
      {outcome.text}
      {outcome.status === 409 ? (
        <>
          {' '}
          <Link to="/reports">See My reports</Link>.
        </>
      ) : null}
    </p>
  );
}

/**
 * The report form, opened in place (docs/trust.md#reports): a reason and a note. Escape or Cancel closes it and the
 * opener takes the focus back; once sent it says where to follow the report.
 */
export function ReportDialog({
  targetKind,
  targetId,
  targetName,
  onClose,
}: {
  targetKind: ReportTargetKind;
  targetId: string;
  targetName: string;
  onClose: () => void;
}) {
  const ids = useId();
  const first = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [report, { loading }] = useMutation(ReportContentDocument);
  const what = targetKind === 'MIX' ? 'mix' : 'member';

  useEffect(() => {
    first.current?.focus();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setMissing(true);
      first.current?.focus();
      return;
    }
    setOutcome(null);
    try {
      await report({ variables: { input: { targetKind, targetId, reason, note: note.trim() || null } } });
      setOutcome({ ok: true });
    } catch (error) {
      setOutcome({ ok: false, status: serverStatus(error), text: serverMessage(error, 'The report could not be sent. Please try again.') });
    }
  }

  return (
    <div
      className={styles.panel}
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${ids}-title`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <h2 id={`${ids}-title`} className={styles.panelTitle}>
        Report this {what}: {targetName}
      </h2>
      {outcome?.ok ? (
        <>
          <p className={styles.status} role="status">
            Thank you: the moderators will look at it. Follow it under <Link to="/reports">My reports</Link>.
          </p>
          <div className={styles.row}>
            <button type="button" className={buttons.secondary} onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate>
          <fieldset className={styles.fieldset} aria-describedby={missing && !reason ? `${ids}-missing` : undefined}>
            <legend>Why are you reporting this {what}?</legend>
            {REPORT_REASONS.map((entry, index) => (
              <label key={entry.value} className={styles.choice}>
                <input
                  ref={index === 0 ? first : undefined}
                  type="radio"
                  name={`${ids}-reason`}
                  value={entry.value}
                  checked={reason === entry.value}
                  onChange={() => setReason(entry.value)}
                />
                {entry.label}
              </label>
            ))}
          </fieldset>
          {missing && !reason ? (
            <p id={`${ids}-missing`} className={styles.alert} role="alert">
              Choose a reason.
            </p>
          ) : null}
          <label className={styles.field}>
            Note for the moderators (optional)
            <textarea rows={3} value={note} maxLength={REPORT_NOTE_MAX} onChange={(event) => setNote(event.target.value)} />
          </label>
          {outcome && !outcome.ok ? <Refusal outcome={outcome} /> : null}
          <div className={styles.row}>
            <button type="submit" className={buttons.primary} disabled={loading}>
              {loading ? 'Sending…' : 'Send report'}
            </button>
            <button type="button" className={buttons.secondary} onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A "Report" button that opens the report form below it, and takes the focus back when it closes. */
export function ReportButton({ targetKind, targetId, targetName }: { targetKind: ReportTargetKind; targetId: string; targetName: string }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={opener}
        type="button"
        className={buttons.secondary}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        Report
      </button>
      {open ? (
        <ReportDialog
          targetKind={targetKind}
          targetId={targetId}
          targetName={targetName}
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}

import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { MixRecognitionDocument, SetTracklistDocument } from '../../gql/graphql';
import { formatClock } from '../../lib/format';
import { readStored, writeStored } from '../../lib/storage';
import { Overlay } from '../../upload/Overlay';
import { type ChosenTrack, tracklistEntries } from '../../upload/tracklist';
import shared from '../../upload/Upload.module.css';
import { UploadSteps } from '../../upload/UploadSteps';
import { markConfirmed, readMixId, readOptions, readRows, type TrackOption, type TrackRow, UploadKeys } from '../../upload/upload-state';
import styles from './ConfirmPage.module.css';

/** What step 3 says when it has nothing to confirm (docs/upload.md#step-3-confirm-tracks). */
export const NOTHING_TO_CONFIRM = 'Ooops, something went wrong.';
/** The value of a slot's "as typed" option. */
const MANUAL = 'manual';

function readChoices(count: number): string[] | null {
  try {
    const value: unknown = JSON.parse(readStored(UploadKeys.choices) ?? 'null');
    return Array.isArray(value) && value.length === count && value.every((item) => typeof item === 'string') ? value : null;
  } catch {
    return null;
  }
}

/** Exactly one option per slot; the best (recognised first) is preselected, the typed track where none was found (docs/upload.md#step-3-confirm-tracks). */
const preselected = (options: TrackOption[][]): string[] => options.map((slot) => slot[0]?.id ?? MANUAL);

function OptionCard({ option, time }: { option: TrackOption; time: number | undefined }) {
  return (
    <span className={styles.option}>
      {option.coverUrl ? (
        <img src={option.coverUrl} alt="" width={48} height={48} className={styles.cover} />
      ) : (
        <span className={styles.noCover} />
      )}
      <span className={styles.optionText}>
        <span className={styles.optionTitle}>{option.title}</span>
        <span className={styles.optionMeta}>{option.creators.join(', ')}</span>
        {option.label ? <span className={styles.optionMeta}>{option.label}</span> : null}
        {time === undefined ? null : <span className={styles.found}>Found in your mix at {formatClock(time)}</span>}
      </span>
    </span>
  );
}

function Slot({
  index,
  row,
  options,
  chosen,
  times,
  onChoose,
}: {
  index: number;
  row: TrackRow;
  options: TrackOption[];
  chosen: string;
  times: Map<string, number>;
  onChoose(value: string): void;
}) {
  const name = `${useId()}-slot`;
  return (
    <fieldset className={styles.slot}>
      <legend className={styles.legend}>
        {index + 1}. {row.artist} – {row.title}
      </legend>
      <p className={styles.hint}>{options.length > 0 ? 'Choose option' : 'No options found'}</p>
      <div className={styles.options}>
        {options.map((option) => (
          <label key={option.id} className={styles.choice}>
            <input type="radio" name={name} value={option.id} checked={chosen === option.id} onChange={() => onChoose(option.id)} />
            <OptionCard option={option} time={times.get(option.id)} />
          </label>
        ))}
        <label className={styles.choice}>
          <input type="radio" name={name} value={MANUAL} checked={chosen === MANUAL} onChange={() => onChoose(MANUAL)} />
          <span className={styles.option}>
            <span className={styles.noCover} />
            <span className={styles.optionText}>
              <span className={styles.optionTitle}>{row.title}</span>
              <span className={styles.optionMeta}>{row.artist} · as typed</span>
            </span>
          </span>
        </label>
      </div>
    </fieldset>
  );
}

/**
 * Step 3, /upload/confirm (docs/upload.md#step-3-confirm-tracks): 'Confirm tracklist', each typed row's options from the lookup (recognised tracks
 * first, with their times, preselected), the typed track as the last option; 'Confirm' saves the tracklist on the
 * server ('Finishing up...') and goes to payment.
 */
export function ConfirmPage() {
  const navigate = useNavigate();
  const mixId = readMixId();
  const [options] = useState(readOptions);
  const [rows] = useState(readRows);
  const [choices, setChoices] = useState<string[]>(() => (options ? (readChoices(options.length) ?? preselected(options)) : []));
  const [failure, setFailure] = useState<string | null>(null);
  const recognition = useQuery(MixRecognitionDocument, {
    variables: { mixId: mixId ?? '' },
    skip: !mixId,
    fetchPolicy: 'cache-and-network',
  });
  const [setTracklist, saving] = useMutation(SetTracklistDocument);

  useEffect(() => writeStored(UploadKeys.choices, JSON.stringify(choices)), [choices]);

  const recognised = recognition.data?.mixRecognition.tracks ?? [];
  // The recognised times go with the tracklist: Confirm waits for them (a failed query only costs the times).
  const waitingForTimes = recognition.loading && !recognition.data;
  const times = new Map(recognised.map((track) => [track.trackId, track.start]));
  const usable = mixId && options && options.length > 0 && options.length <= rows.length;

  if (!usable) {
    return (
      <AppShell label="Confirm tracklist" columns={1}>
        <div className={shared.page}>
          <UploadSteps current={3} />
          <h1 className={shared.title}>Confirm tracklist</h1>
          <div className={shared.section} role="alert">
            <p>{NOTHING_TO_CONFIRM}</p>
            <div className={shared.actions}>
              <Link to="/upload/track-list" className={buttons.primary}>
                Try again
              </Link>
            </div>
          </div>
        </div>
      </AppShell>
    );
  }

  async function confirm() {
    if (!mixId || !options || waitingForTimes) return;
    setFailure(null);
    const chosen: ChosenTrack[] = options.map((slot, index) => {
      const option = slot.find((candidate) => candidate.id === choices[index]);
      const row = rows[index] ?? { artist: '', title: '' };
      return option ? { kind: 'catalogue', trackId: option.id, title: option.title, creators: option.creators } : { kind: 'manual', row };
    });
    try {
      await setTracklist({ variables: { mixId, tracks: tracklistEntries(chosen, recognised) } });
      markConfirmed();
      navigate('/upload/payment');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : NOTHING_TO_CONFIRM);
    }
  }

  return (
    <AppShell label="Confirm tracklist" columns={1}>
      <div className={shared.page}>
        <UploadSteps current={3} />
        <h1 className={shared.title}>Confirm tracklist</h1>
        <form
          className={shared.section}
          aria-label="Choose the track for each row"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          {options.map((slot, index) => (
            <Slot
              // biome-ignore lint/suspicious/noArrayIndexKey: a slot is its place in the tracklist
              key={index}
              index={index}
              row={rows[index] ?? { artist: '', title: '' }}
              options={slot}
              chosen={choices[index] ?? MANUAL}
              times={times}
              onChoose={(value) => setChoices((current) => current.map((choice, at) => (at === index ? value : choice)))}
            />
          ))}
          {failure ? (
            <div className={shared.alert} role="alert">
              <p>{NOTHING_TO_CONFIRM}</p>
              <p>{failure}</p>
              <button type="button" className={buttons.secondary} onClick={() => void confirm()}>
                Try again
              </button>
            </div>
          ) : null}
          <div className={shared.actions}>
            <button type="button" className={buttons.secondary} onClick={() => navigate('/upload')}>
              Start again
            </button>
            <button
              type="submit"
              className={buttons.primary}
              disabled={saving.loading || waitingForTimes}
              aria-busy={waitingForTimes || undefined}
            >
              Confirm
            </button>
          </div>
        </form>
      </div>
      <Overlay open={saving.loading} title="Finishing up..." />
    </AppShell>
  );
}

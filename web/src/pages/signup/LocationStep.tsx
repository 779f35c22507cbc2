import { useMutation } from '@apollo/client/react';
import { type CoordinateRule, LOCATION_CELL_KM, LOCATION_RULE } from '@mixcrate/api/rules';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import buttons from '../../components/Button.module.css';
import { TextField } from '../../components/TextField';
import { SetLocationDocument, type SignUpProgressFragment } from '../../gql/graphql';
import { validate } from '../../lib/form-errors';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import styles from './SignUpPage.module.css';
import { StepActions } from './StepActions';

/** A manual fallback for when the browser cannot or may not share a position. */
export const PRESET_CITIES = [
  { name: 'Berlin', latitude: 52.52, longitude: 13.405 },
  { name: 'London', latitude: 51.5072, longitude: -0.1276 },
  { name: 'New York', latitude: 40.7128, longitude: -74.006 },
  { name: 'Lagos', latitude: 6.5244, longitude: 3.3792 },
  { name: 'São Paulo', latitude: -23.5505, longitude: -46.6333 },
  { name: 'Tokyo', latitude: 35.6762, longitude: 139.6503 },
] as const;

export const locationMessages = {
  denied: 'Location access is blocked in this browser. Pick a city or type your coordinates below.',
  unavailable: 'We could not find your location. Pick a city or type your coordinates below.',
  found: 'Found you. Check the coordinates below, then press Next.',
} as const;

/** A typed coordinate, checked by the server's rule and in its words (a blank is no number either). */
const coordinate = ({ limit, notANumber, outOfRange }: CoordinateRule) =>
  z
    .string()
    .trim()
    .min(1, notANumber)
    .transform(Number)
    .pipe(z.number({ error: notANumber }).min(-limit, outOfRange).max(limit, outOfRange));

const locationFormSchema = z.object({
  latitude: coordinate(LOCATION_RULE.latitude),
  longitude: coordinate(LOCATION_RULE.longitude),
});

type Field = 'latitude' | 'longitude';
type Values = Record<Field, string>;

/** Four decimals is about 11 m: precise enough for a km badge, and no more of the member's position than that. */
const rounded = (value: number) => String(Math.round(value * 10_000) / 10_000);

type Locating = 'idle' | 'locating' | 'found' | 'denied' | 'unavailable';

interface LocationStepProps {
  progress: SignUpProgressFragment;
  onSaved(progress: SignUpProgressFragment): void;
}

/** Sign-up step 3: where the member is, for distances (docs/accounts.md#sign-up). The browser's position, or a city, or coordinates. */
export function LocationStep({ progress, onSaved }: LocationStepProps) {
  const [values, setValues] = useState<Values>(() =>
    progress.location
      ? { latitude: String(progress.location.latitude), longitude: String(progress.location.longitude) }
      : { latitude: '', longitude: '' },
  );
  const [submitted, setSubmitted] = useState(false);
  const [locating, setLocating] = useState<Locating>('idle');
  const [save, { error, loading, reset }] = useMutation(SetLocationDocument);
  const canLocate = typeof navigator !== 'undefined' && 'geolocation' in navigator;

  const validation = validate(locationFormSchema, values);
  const shownError = (field: Field) => (submitted ? validation.errors[field] : undefined);

  function fill(next: Values) {
    setValues(next);
    if (error) reset();
  }

  function locate() {
    setLocating('locating');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        fill({ latitude: rounded(position.coords.latitude), longitude: rounded(position.coords.longitude) });
        setLocating('found');
      },
      (failure) => setLocating(failure.code === failure.PERMISSION_DENIED ? 'denied' : 'unavailable'),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 10 * 60_000 },
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!validation.ok || loading) return;
    try {
      const result = await save({ variables: { location: validation.data } });
      if (result.data) onSaved(result.data.setLocation);
    } catch {
      // The hook's `error` shows the server's message.
    }
  }

  const locatingMessage = locating === 'found' || locating === 'denied' || locating === 'unavailable' ? locationMessages[locating] : null;

  return (
    <>
      <h1 id="signup-title" className={styles.title} tabIndex={-1}>
        Where are you?
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.subtitle}>
          Your location lets members see how far away your mixes were made. Others only see the area about {LOCATION_CELL_KM} km across that
          holds it, and distances in whole km.
        </p>
        {canLocate ? (
          <button
            type="button"
            className={buttons.secondary}
            onClick={locate}
            disabled={locating === 'locating'}
            aria-busy={locating === 'locating' || undefined}
          >
            {locating === 'locating' ? 'Finding your location…' : 'Use my location'}
          </button>
        ) : (
          <p className={styles.hint}>This browser cannot share a location. Pick a city or type your coordinates.</p>
        )}
        <p role="status" className={locating === 'found' ? styles.success : styles.hint}>
          {locatingMessage}
        </p>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Or pick a city</legend>
          <div className={styles.cities}>
            {PRESET_CITIES.map((city) => {
              const chosen = values.latitude === String(city.latitude) && values.longitude === String(city.longitude);
              return (
                <button
                  key={city.name}
                  type="button"
                  className={styles.chip}
                  aria-pressed={chosen}
                  onClick={() => fill({ latitude: String(city.latitude), longitude: String(city.longitude) })}
                >
                  {city.name}
                </button>
              );
            })}
          </div>
        </fieldset>

        <div className={styles.coordinates}>
          <TextField
            label="Latitude"
            name="latitude"
            inputMode="decimal"
            placeholder="52.52"
            value={values.latitude}
            onChange={(event) => fill({ ...values, latitude: event.target.value })}
            error={shownError('latitude')}
          />
          <TextField
            label="Longitude"
            name="longitude"
            inputMode="decimal"
            placeholder="13.405"
            value={values.longitude}
            onChange={(event) => fill({ ...values, longitude: event.target.value })}
            error={shownError('longitude')}
          />
        </div>
        {error ? (
          <div className={styles.alert} role="alert">
            {serverMessage(error, UNREACHABLE)}
          </div>
        ) : null}
        <StepActions back="/signup/username" label="Next" busyLabel="Saving…" busy={loading} />
      </form>
    </>
  );
}

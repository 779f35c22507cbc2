import { useApolloClient } from '@apollo/client/react';
import { USER_TYPE_CODES, USER_TYPES, type UserTypeCode } from '@mixcrate/api/domain';
import { BIO_MAX, DISPLAY_NAME_MAX, imageProblem, PROFILE_IMAGE_RULE } from '@mixcrate/api/rules';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Avatar } from '../../components/Avatar';
import buttons from '../../components/Button.module.css';
import { SquareCropper } from '../../components/SquareCropper';
import { TextField } from '../../components/TextField';
import type { ProfileFieldsFragment } from '../../gql/graphql';
import { authHeaders } from '../../lib/auth-headers';
import styles from './Profile.module.css';
import { cleanFileName, IMAGE_ERROR_MS } from './profile-image';

const codeOf = (type: ProfileFieldsFragment['userType']) => type.toLowerCase().replace('_', '-') as UserTypeCode;

interface ChosenImage {
  url: string;
  name: string;
}

interface CroppedImage {
  blob: Blob;
  url: string;
  name: string;
}

async function serverMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { message?: string; error?: string } | null;
  return body?.message ?? body?.error ?? 'Your profile could not be saved.';
}

/**
 * Profile edit (docs/profiles.md#editing-a-profile): an image cropped square in the browser and sent as JPEG over the REST multipart call
 * (GraphQL takes no uploads), display name, user type, bio with its 'n / 180' counter, Save and Cancel.
 */
export function ProfileEditor({ user, onDone }: { user: ProfileFieldsFragment; onDone(): void }) {
  const client = useApolloClient();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [userType, setUserType] = useState<UserTypeCode>(codeOf(user.userType));
  const [bio, setBio] = useState(user.bio);
  const [chosen, setChosen] = useState<ChosenImage | null>(null);
  const [cropped, setCropped] = useState<CroppedImage | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  const bioLength = bio.trim().length;
  const bioTooLong = bioLength > BIO_MAX;
  const cropping = chosen !== null;

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (!imageError) return;
    const timer = setTimeout(() => setImageError(null), IMAGE_ERROR_MS);
    return () => clearTimeout(timer);
  }, [imageError]);
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen.url) : undefined), [chosen]);
  useEffect(() => () => (cropped ? URL.revokeObjectURL(cropped.url) : undefined), [cropped]);

  function choose(file: File | undefined) {
    if (!file) return;
    const problem = imageProblem(PROFILE_IMAGE_RULE, file);
    setImageError(problem);
    if (problem) return;
    setChosen({ url: URL.createObjectURL(file), name: cleanFileName(file.name) });
  }

  function finishCrop(chosenImage: ChosenImage, blob: Blob) {
    setCropped({ blob, url: URL.createObjectURL(blob), name: chosenImage.name.replace(/\.\w+$/, '.jpg') });
    setChosen(null);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (bioTooLong || saving || cropping) return;
    setSaving(true);
    setSaveError(null);
    const form = new FormData();
    form.append('display_name', displayName.trim());
    form.append('user_type', userType);
    form.append('bio', bio.trim());
    if (cropped) form.append('profile_image', cropped.blob, cropped.name);
    try {
      const response = await fetch('/api/user/update-user', {
        method: 'PATCH',
        headers: authHeaders(),
        body: form,
      });
      if (!response.ok) {
        setSaveError(await serverMessage(response));
        setSaving(false);
        return;
      }
      await client.refetchQueries({ include: ['Profile', 'Viewer'] });
      onDone();
    } catch {
      setSaveError('Your profile could not be saved. Check your connection and try again.');
      setSaving(false);
    }
  }

  const previewUrl = cropped?.url ?? user.imageUrl;
  return (
    <form className={styles.editor} onSubmit={save} aria-labelledby={`${ids}-title`} noValidate>
      <h1 id={`${ids}-title`} ref={heading} tabIndex={-1} className={styles.sectionTitle}>
        Edit profile
      </h1>
      <div className={styles.imageRow}>
        {previewUrl ? (
          <img src={previewUrl} alt="Your profile" width={96} height={96} className={styles.preview} />
        ) : (
          <Avatar name={displayName || user.userName || 'Member'} size={96} />
        )}
        <div className={styles.imagePicker}>
          <input
            id={`${ids}-image`}
            type="file"
            accept={PROFILE_IMAGE_RULE.accept}
            className={`${styles.visuallyHidden} ${styles.fileInput}`}
            aria-describedby={imageError ? `${ids}-image-error` : `${ids}-image-hint`}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <label htmlFor={`${ids}-image`} className={buttons.secondary}>
            {previewUrl ? 'Change image' : 'Choose image'}
          </label>
          {imageError ? (
            <p id={`${ids}-image-error`} className={styles.error} role="alert">
              {imageError}
            </p>
          ) : (
            <p id={`${ids}-image-hint`} className={styles.hint}>
              {PROFILE_IMAGE_RULE.hint}
            </p>
          )}
        </div>
      </div>

      {chosen ? (
        <SquareCropper
          source={chosen.url}
          label="Crop your image"
          onCancel={() => setChosen(null)}
          onDone={(jpeg) => finishCrop(chosen, jpeg)}
          onInvalid={() => {
            setImageError(PROFILE_IMAGE_RULE.invalid);
            setChosen(null);
          }}
        />
      ) : null}

      <TextField
        label="Display name"
        name="displayName"
        value={displayName}
        maxLength={DISPLAY_NAME_MAX}
        autoComplete="nickname"
        onChange={(event) => setDisplayName(event.target.value)}
      />
      <div className={styles.field}>
        <label htmlFor={`${ids}-type`}>User type</label>
        <select
          id={`${ids}-type`}
          value={userType}
          onChange={(event) => setUserType(event.target.value as UserTypeCode)}
          className={styles.select}
        >
          {USER_TYPE_CODES.map((code) => (
            <option key={code} value={code}>
              {USER_TYPES[code]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${ids}-bio`}>Bio</label>
        <textarea
          id={`${ids}-bio`}
          value={bio}
          rows={4}
          onChange={(event) => setBio(event.target.value)}
          aria-describedby={`${ids}-counter`}
          aria-invalid={bioTooLong || undefined}
          className={styles.textarea}
        />
        <span id={`${ids}-counter`} className={bioTooLong ? styles.counterOver : styles.counter}>
          {bioLength} / {BIO_MAX}
        </span>
      </div>
      {saveError ? (
        <p className={styles.error} role="alert">
          {saveError}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className={buttons.primary} disabled={bioTooLong || saving || cropping} aria-busy={saving || undefined}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className={buttons.secondary} onClick={onDone} disabled={saving}>
          Cancel
        </button>
      </div>
    </form>
  );
}

import { useMutation } from '@apollo/client/react';
import { hints } from '@mixcrate/api/rules';
import { userNameSchema } from '@mixcrate/api/validation';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import { TextField } from '../../components/TextField';
import { SetUserNameDocument, type SignUpProgressFragment } from '../../gql/graphql';
import { validate } from '../../lib/form-errors';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import { StorageKeys, writeStored } from '../../lib/storage';
import styles from './SignUpPage.module.css';
import { StepActions } from './StepActions';

const userNameFormSchema = z.object({ userName: userNameSchema });

interface UserNameStepProps {
  progress: SignUpProgressFragment;
  onSaved(progress: SignUpProgressFragment): void;
}

/** Sign-up step 2: the user name (unique regardless of case; the server says when it is taken). */
export function UserNameStep({ progress, onSaved }: UserNameStepProps) {
  const [userName, setUserName] = useState(progress.userName ?? '');
  const [fieldError, setFieldError] = useState<string>();
  const [save, { error, loading, reset }] = useMutation(SetUserNameDocument);
  const shownError = fieldError ?? (error ? serverMessage(error, UNREACHABLE) : undefined);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const validation = validate(userNameFormSchema, { userName });
    setFieldError(validation.errors.userName);
    if (!validation.ok) return;
    try {
      const result = await save({ variables: { userName: validation.data.userName } });
      const saved = result.data?.setUserName;
      if (!saved) return;
      if (saved.userName) writeStored(StorageKeys.userName, saved.userName);
      onSaved(saved);
    } catch {
      // The hook's `error` shows the server's message under the field.
    }
  }

  return (
    <>
      <h1 id="signup-title" className={styles.title} tabIndex={-1}>
        Choose a username
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.subtitle}>It is your address on mixcrate: people find your profile and mixes by it.</p>
        <TextField
          label="Username"
          name="userName"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={userName}
          onChange={(event) => {
            setUserName(event.target.value);
            setFieldError(undefined);
            if (error) reset();
          }}
          error={shownError}
        />
        {/* The rule's own message says the same when the name breaks it. */}
        {shownError ? null : <p className={styles.hint}>{hints.userName}</p>}
        <StepActions back="/signup" label="Next" busyLabel="Saving…" busy={loading} />
      </form>
    </>
  );
}

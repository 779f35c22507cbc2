import { useMutation } from '@apollo/client/react';
import { USER_TYPE_CODES, USER_TYPES, type UserTypeCode } from '@mixcrate/api/domain';
import { type FormEvent, useState } from 'react';
import { SetUserTypeDocument, type SignUpProgressFragment, type UserType } from '../../gql/graphql';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import { StorageKeys, writeStored } from '../../lib/storage';
import styles from './SignUpPage.module.css';
import { StepActions } from './StepActions';

/** Codes ('dj-creator') and the GraphQL enum ('DJ_CREATOR') name the same twelve types (docs/rules.md#user-types). */
export const toGraphQLUserType = (code: UserTypeCode): UserType => code.toUpperCase().replace('-', '_') as UserType;
export const toUserTypeCode = (userType: UserType): UserTypeCode => userType.toLowerCase().replace('_', '-') as UserTypeCode;

interface UserTypeStepProps {
  progress: SignUpProgressFragment;
  onSaved(progress: SignUpProgressFragment, code: UserTypeCode): void;
}

/** Sign-up step 4: what the member does (a label only, docs/permissions.md#user-types-grant-nothing); Listener unless they pick another. */
export function UserTypeStep({ progress, onSaved }: UserTypeStepProps) {
  const [code, setCode] = useState<UserTypeCode>(() => toUserTypeCode(progress.userType));
  const [save, { error, loading, reset }] = useMutation(SetUserTypeDocument);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    try {
      const result = await save({ variables: { userType: toGraphQLUserType(code) } });
      if (!result.data) return;
      writeStored(StorageKeys.userType, code);
      onSaved(result.data.setUserType, code);
    } catch {
      // The hook's `error` shows the server's message.
    }
  }

  return (
    <>
      <h1 id="signup-title" className={styles.title} tabIndex={-1}>
        What do you do?
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.fieldset}>
          <legend className={styles.subtitleLegend}>Pick the one that fits you best. You can change it later on your profile.</legend>
          <div className={styles.types}>
            {USER_TYPE_CODES.map((option) => (
              <label key={option} className={styles.type}>
                <input
                  type="radio"
                  name="userType"
                  value={option}
                  checked={code === option}
                  onChange={() => {
                    setCode(option);
                    if (error) reset();
                  }}
                />
                <span>{USER_TYPES[option]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {error ? (
          <div className={styles.alert} role="alert">
            {serverMessage(error, UNREACHABLE)}
          </div>
        ) : null}
        <StepActions back="/signup/location" label="Next" busyLabel="Saving…" busy={loading} />
      </form>
    </>
  );
}

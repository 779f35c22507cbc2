/** Local-storage keys the client keeps where they mean something to the user (docs/navigation.md#stored-in-the-browser). */
export const StorageKeys = {
  token: 'token',
  userName: 'user_name',
  location: 'location',
  userType: 'user_type',
} as const;

/** What the landing page and the logo clear (docs/navigation.md#header): the stored login. */
const LOGIN_KEYS = [StorageKeys.token, StorageKeys.userName, StorageKeys.location, StorageKeys.userType];

/** localStorage can throw (privacy modes, quota); the app treats that as "nothing stored". */
function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readStored(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Nothing to do: the session then lasts as long as the page.
  }
}

export function removeStored(...keys: string[]): void {
  const store = storage();
  for (const key of keys) {
    try {
      store?.removeItem(key);
    } catch {
      // ignore
    }
  }
}

export const readToken = (): string | null => readStored(StorageKeys.token);

export function clearLoginData(): void {
  removeStored(...LOGIN_KEYS);
}

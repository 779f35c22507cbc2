/** Subscription topics and their payloads: small plain objects, so they cross Redis unchanged. */
export const Topics = {
  ProfileUpdated: 'PROFILE_UPDATED',
} as const;

export interface ProfileChangedEvent {
  id: string;
  userName: string | null;
}

/** Subscription topics and their payloads: small plain objects, so they cross Redis unchanged. */
export const Topics = {
  ProfileUpdated: 'PROFILE_UPDATED',
  ListenerCount: 'LISTENER_COUNT',
  RecognitionProgress: 'RECOGNITION_PROGRESS',
} as const;

export interface ProfileChangedEvent {
  id: string;
  userName: string | null;
}

export interface ListenerCountEvent {
  mixId: string;
  count: number;
}

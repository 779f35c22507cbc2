/**
 * Subscription topics and their payloads: small plain objects, so they cross Redis or NOTIFY unchanged. Topics with a
 * `:id` suffix (one mix's count, one member's follow events) reach only the processes and sockets that watch that id.
 */
export const Topics = {
  ProfileUpdated: 'PROFILE_UPDATED',
  /** Published per mix: `LISTENER_COUNT:<mixId>`. */
  ListenerCount: 'LISTENER_COUNT',
  RecognitionProgress: 'RECOGNITION_PROGRESS',
  /** Published per member: `FOLLOW_EVENT:<recipientId>`. */
  FollowEvent: 'FOLLOW_EVENT',
} as const;

export interface ProfileChangedEvent {
  id: string;
  userName: string | null;
}

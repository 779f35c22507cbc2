import { NotificationErrors } from './notification.errors.js';

export const notificationPolicy = {
  /** A member reads and marks only their own notifications; someone else's is "not found", never "forbidden". */
  assertIsRecipient(recipientId: string | undefined, viewerId: string): void {
    if (recipientId !== viewerId) throw NotificationErrors.notFound();
  },
};

import { NotFoundError } from '../../shared/errors.js';

/** Every error the notifications domain answers with, and its words. */
export const NotificationErrors = {
  notFound: () => new NotFoundError('Notification not found'),
} as const;

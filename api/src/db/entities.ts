import { MemberSession } from '../modules/auth/member-session.entity.js';
import { PasswordResetToken } from '../modules/auth/password-reset-token.entity.js';
import { CreatorClaim } from '../modules/creators/creator-claim.entity.js';
import { Follow } from '../modules/follows/follow.entity.js';
import { SavedMix } from '../modules/library/saved-mix.entity.js';
import { SavedTrack } from '../modules/library/saved-track.entity.js';
import { Listen } from '../modules/listens/listen.entity.js';
import { ResumableUpload } from '../modules/media/resumable-upload.entity.js';
import { StagedFile } from '../modules/media/staged-file.entity.js';
import { Mix } from '../modules/mixes/mix.entity.js';
import { MixFeedTally } from '../modules/mixes/mix-feed-tally.entity.js';
import { MixTrack } from '../modules/mixes/mix-track.entity.js';
import { TracklistVersion, TracklistVersionEntry } from '../modules/mixes/tracklist-version.entity.js';
import { moderationEntities } from '../modules/moderation/moderation.entities.js';
import { Notification } from '../modules/notifications/notification.entity.js';
import { paymentEntities } from '../modules/payments/payment.entity.js';
import { recognitionEntities } from '../modules/recognition/recognition.entities.js';
import { MemberRole } from '../modules/roles/member-role.entity.js';
import { searchEntities } from '../modules/search/search.entities.js';
import { catalogueEntities } from '../modules/tracks/catalogue/catalogue.entities.js';
import { Track } from '../modules/tracks/track.entity.js';
import { trustEntities } from '../modules/trust/trust.entities.js';
import { User } from '../modules/users/user.entity.js';

export const entities = [
  User,
  Follow,
  Mix,
  Track,
  MixTrack,
  Listen,
  SavedMix,
  SavedTrack,
  ...paymentEntities,
  PasswordResetToken,
  MemberSession,
  MixFeedTally,
  StagedFile,
  ResumableUpload,
  Notification,
  ...catalogueEntities,
  ...recognitionEntities,
  MemberRole,
  TracklistVersion,
  TracklistVersionEntry,
  ...searchEntities,
  ...moderationEntities,
  CreatorClaim,
  ...trustEntities,
];

import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { AdvisoryLocks } from './db/advisory-locks.js';
import type { Orm } from './db/orm.js';
import { AuthService } from './modules/auth/auth.service.js';
import { RateLimits } from './modules/auth/rate-limits.js';
import { SessionsService } from './modules/auth/sessions.service.js';
import { TokenService } from './modules/auth/tokens.js';
import { CreatorsService } from './modules/creators/creators.service.js';
import { FollowsService } from './modules/follows/follows.service.js';
import { LibraryService, savedByViewerSql } from './modules/library/library.service.js';
import { ListensService } from './modules/listens/listens.service.js';
import { Mailer } from './modules/mail/mailer.js';
import { MediaService } from './modules/media/media.service.js';
import { mixFileCache } from './modules/media/mix-file-cache.js';
import { ResumableUploads } from './modules/media/resumable-uploads.js';
import { UploadStaging } from './modules/media/upload-staging.js';
import { WaveformService } from './modules/media/waveform.service.js';
import { MixesService } from './modules/mixes/mixes.service.js';
import { ModerationService } from './modules/moderation/moderation.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { RecognitionService } from './modules/recognition/recognition.service.js';
import { RecognitionJobs } from './modules/recognition/recognition-jobs.js';
import { TrackReferences } from './modules/recognition/track-references.service.js';
import { RecommendationsService } from './modules/recommendations/recommendations.service.js';
import { RolesService } from './modules/roles/roles.service.js';
import { SearchService } from './modules/search/search.service.js';
import { TracksService } from './modules/tracks/tracks.service.js';
import { TrustService } from './modules/trust/index.js';
import { UsersService } from './modules/users/users.service.js';
import { originAllowed } from './shared/origins.js';
import type { StorageDriver } from './storage/storage.js';
import { createStorage } from './storage/storage-factory.js';

export interface Services {
  config: Config;
  orm: Orm;
  storage: StorageDriver;
  auth: AuthService;
  sessions: SessionsService;
  users: UsersService;
  mixes: MixesService;
  payments: PaymentsService;
  roles: RolesService;
  moderation: ModerationService;
  creators: CreatorsService;
  tracks: TracksService;
  search: SearchService;
  library: LibraryService;
  follows: FollowsService;
  listens: ListensService;
  notifications: NotificationsService;
  recommendations: RecommendationsService;
  media: MediaService;
  recognition: RecognitionService;
  recognitionJobs: RecognitionJobs;
  trackReferences: TrackReferences;
  trust: TrustService;
  close(): Promise<void>;
}

/** Wires every domain service once; GraphQL resolvers and REST routes both call these. */
export async function createServices(config: Config, orm: Orm, log: FastifyBaseLogger): Promise<Services> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  const tokens = await TokenService.create(config.JWT_SECRET, config.DATA_DIR);
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM, join(config.DATA_DIR, 'outbox'), log, { logsBodies: !config.isProduction });
  const storage = createStorage(config);
  // The tracks module asks recognition (a module above it) for the tracks recognised in a mix through this callback.
  const tracks = new TracksService(orm, storage, (viewer, mixId) => recognitionJobs.recognisedTrackIds(viewer, mixId));
  const mixes = new MixesService(
    orm,
    storage,
    tracks,
    savedByViewerSql,
    {
      maxDrafts: config.MAX_DRAFTS_PER_MEMBER,
      ttlDays: config.DRAFT_TTL_DAYS,
    },
    (ownerId) => trust.assertCanUpload(ownerId),
  );
  const rateLimits = new RateLimits(redis);
  const roles = new RolesService(orm);
  const moderation = new ModerationService(orm, roles);
  // Payouts and creators' earnings follow the creator names members hold (the creators module, made below).
  const payments = new PaymentsService(orm, config, mixes, roles, rateLimits, log, {
    creatorKeysOf: (userId) => creators.creatorKeysOf(userId),
    allHolders: () => creators.allCreatorHolders(),
  });
  payments.startSweeping();
  const databaseUrl = orm.config.get('clientUrl') ?? '';
  const sessions = new SessionsService(orm, tokens, { lifetimeMs: config.JWT_TTL, idleMs: config.SESSION_IDLE_TTL }, databaseUrl, log);
  const auth = new AuthService(orm, sessions, rateLimits, mailer, config.PUBLIC_URL);
  const locks = new AdvisoryLocks(databaseUrl, log);
  await locks.start();
  const waveforms = new WaveformService(
    orm,
    storage,
    {
      connectionString: orm.config.get('clientUrl') ?? '',
      retryLimit: config.WAVEFORM_RETRY_LIMIT,
      retryDelaySeconds: config.WAVEFORM_RETRY_DELAY_SECONDS,
    },
    log,
    locks,
  );
  const uploads = new ResumableUploads(orm, storage, (token) => auth.authenticate(token), locks, {
    trustProxy: config.TRUST_PROXY !== false,
    allowsOrigin: (origin) => originAllowed(config.CORS_ORIGINS, origin),
    maxOpenBytesPerMember: Math.floor(config.MAX_OPEN_UPLOADS_GB * 1024 ** 3),
    uploadGate: async (ownerId) => {
      const block = await trust.uploadBlockOf(ownerId);
      return block ? { status: 403, message: block.message } : null;
    },
  });
  const fileCache = mixFileCache(databaseUrl, log);
  const staging = new UploadStaging(orm, storage, locks, databaseUrl, log);
  const recognition = new RecognitionService(orm);
  const recognitionJobs = new RecognitionJobs(
    orm,
    storage,
    recognition,
    {
      connectionString: databaseUrl,
      retryLimit: config.WAVEFORM_RETRY_LIMIT,
      retryDelaySeconds: config.WAVEFORM_RETRY_DELAY_SECONDS,
      refreshLimit: config.RECOGNITION_REFRESH_LIMIT,
    },
    log,
    locks,
  );
  const media = new MediaService(orm, storage, mixes, uploads, waveforms, log, fileCache, staging, recognitionJobs);
  await media.resumeInterruptedWork();
  const listens = new ListensService(orm, { expiryMs: config.LISTEN_EXPIRY_MS }, log);
  listens.startSweeping();
  const users = new UsersService(orm, storage, (memberId) => rateLimits.consume([['locationChangePerMember', memberId]]));
  const search = new SearchService(orm, mixes, databaseUrl, log);
  await search.start();
  const notifications = new NotificationsService(orm, (user) => users.imageUrl(user));
  const creators = new CreatorsService(orm, moderation, notifications, mailer, config.PUBLIC_URL, (memberId) =>
    rateLimits.consume([['creatorClaimPerMember', memberId]]),
  );
  const trust = new TrustService({
    orm,
    roles,
    moderation,
    mailer,
    publicUrl: config.PUBLIC_URL,
    holdsTrack: (userId, track) => creators.holdsTrack(userId, track),
    notifications,
    endSessions: (memberId) => sessions.endAll(memberId),
    log: (error, message) => log.error({ err: error }, message),
  });
  return {
    config,
    orm,
    storage,
    auth,
    sessions,
    users,
    mixes,
    payments,
    roles,
    moderation,
    creators,
    tracks,
    search,
    library: new LibraryService(orm, mixes),
    follows: new FollowsService(orm, notifications),
    listens,
    notifications,
    recommendations: new RecommendationsService(orm),
    media,
    recognition,
    recognitionJobs,
    trackReferences: new TrackReferences(orm, recognition, uploads, config.RECOGNITION_REFERENCE_MAX_BYTES, {
      holdsTrack: (userId, track) => creators.holdsTrack(userId, track),
      roleOf: (userId) => roles.roleOf(userId),
      moderation,
    }),
    trust,
    async close() {
      payments.close();
      await search.close();
      await listens.close();
      await media.close();
      await auth.close();
      await recognition.close();
      await locks.close();
      mailer.close();
      redis?.disconnect();
    },
  };
}

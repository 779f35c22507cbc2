import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { type Mailer, trustMail } from '../mail/index.js';
import type { ModerationService } from '../moderation/index.js';
import type { RolesService } from '../roles/index.js';
import type { Creator } from '../tracks/index.js';

/** What a member is told by notification (the notifications module's kinds; services.ts hands the module in). */
export type TrustNotificationKind =
  | 'MIX_NOTICE'
  | 'MIX_HIDDEN'
  | 'MIX_REMOVED'
  | 'MIX_RESTORED'
  | 'NOTICE_COUNTERED'
  | 'NOTICE_DECIDED'
  | 'WARNED'
  | 'REPORT_DECIDED';

/** What the trust module uses of the modules above it or beside it, handed in by services.ts. */
export interface TrustPorts {
  orm: Orm;
  roles: RolesService;
  moderation: ModerationService;
  mailer: Mailer;
  publicUrl: string;
  /** Whether the member is a verified creator or label of the track (the creators module). */
  holdsTrack(userId: string, track: { creators: Creator[]; label: Creator | null }): Promise<boolean>;
  notifications: {
    record(
      em: EntityManager,
      event: { recipientId: string; actorId: string; kind: TrustNotificationKind; detail: string },
    ): Promise<string>;
    announce(notificationId: string): Promise<void>;
  };
  log(error: unknown, message: string): void;
  /** Ends every session of a member: their tokens are refused and their sockets close (the auth module). */
  endSessions(memberId: string): Promise<number>;
}

export interface Telling {
  recipientId: string;
  kind: TrustNotificationKind;
  detail: string;
  subject: string;
  paragraphs: string[];
  link: { href: string; label: string };
}

/**
 * Records a notification in the caller's transaction; what it answers, run after the commit, announces it and sends
 * the e-mail (a failed mail is logged by the mailer's caller, never undoes the decision).
 */
export async function tell(ports: TrustPorts, em: EntityManager, telling: Telling): Promise<() => Promise<void>> {
  const notificationId = await ports.notifications.record(em, {
    recipientId: telling.recipientId,
    actorId: telling.recipientId,
    kind: telling.kind,
    detail: telling.detail.slice(0, 255),
  });
  const [member] = await em.execute<{ email: string }[]>('select email from app_user where id = ?', [telling.recipientId]);
  return async () => {
    await ports.notifications.announce(notificationId);
    if (member) await ports.mailer.send(trustMail(member.email, telling));
  };
}

/** Runs the after-commit steps in order. */
export const afterAll =
  (steps: (() => Promise<void>)[]): (() => Promise<void>) =>
  async () => {
    for (const step of steps) await step();
  };

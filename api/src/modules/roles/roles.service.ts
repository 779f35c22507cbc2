import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { User } from '../users/index.js';
import { MemberRole } from './member-role.entity.js';
import { type Role, rolePolicy, type StaffRole } from './role.policy.js';
import { RoleErrors } from './roles.errors.js';

/** Who holds a staff role; granted and revoked from the command line (`npm run admin`) by whoever runs the server. */
export class RolesService {
  constructor(private readonly orm: Orm) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  async roleOf(userId: string): Promise<Role> {
    const held = await this.em().findOne(MemberRole, { user: userId });
    return held?.role ?? 'member';
  }

  /** Gives the member signing in with `email` the role (replacing any other); answers their previous role. */
  async grant(email: string, rawRole: string): Promise<Role> {
    const role = this.parseRole(rawRole);
    return this.em().transactional(async (em) => {
      const user = await this.memberByEmail(em as EntityManager, email);
      const held = await em.findOne(MemberRole, { user: user.id });
      const before: Role = held?.role ?? 'member';
      if (held) held.role = role;
      else em.create(MemberRole, { user, role });
      await em.flush();
      return before;
    });
  }

  /** Takes the role from the member signing in with `email`; answers whether they held it. */
  async revoke(email: string, rawRole: string): Promise<boolean> {
    const role = this.parseRole(rawRole);
    const em = this.em();
    const user = await this.memberByEmail(em, email);
    return (await em.nativeDelete(MemberRole, { user: user.id, role })) > 0;
  }

  /** The member's role read in the caller's transaction, their row locked so two changes to one member queue up. */
  async roleIn(em: EntityManager, userId: string): Promise<Role> {
    const [held] = await em.execute<{ role: StaffRole }[]>('select role from member_role where user_id = ? for update', [userId]);
    return held?.role ?? 'member';
  }

  /** Sets the member's staff role in the caller's transaction (null: a plain member again). */
  async setIn(em: EntityManager, userId: string, role: StaffRole | null): Promise<void> {
    if (role === null) {
      await em.execute('delete from member_role where user_id = ?', [userId]);
      return;
    }
    await em.execute(
      `insert into member_role (user_id, role, granted_at) values (?, ?, now())
       on conflict (user_id) do update set role = excluded.role, granted_at = excluded.granted_at`,
      [userId, role],
    );
  }

  private parseRole(raw: string): StaffRole {
    const role = rolePolicy.parse(raw);
    if (!role) throw RoleErrors.unknownRole(raw);
    return role;
  }

  private async memberByEmail(em: EntityManager, email: string) {
    const user = await em.findOne(User, { email: email.trim().toLowerCase() });
    if (!user) throw RoleErrors.unknownMember(email);
    return user;
  }
}

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

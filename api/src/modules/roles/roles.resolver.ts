import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { rolePolicy } from './role.policy.js';

/** The GraphQL skin of roles: what the signed-in member's role lets them open. */
@Resolver()
export class RolesResolver {
  @Query(() => Boolean, { description: 'Whether you may read the creator rewards ledger (operators only); false when signed out.' })
  async canReadLedger(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    if (!ctx.viewer) return false;
    return rolePolicy.canReadLedger(await ctx.services.roles.roleOf(ctx.viewer.id));
  }
}

import { Arg, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { type ProfileChangedEvent, Topics } from '../../graphql/topics.js';
import { requireViewer } from '../../shared/viewer.js';
import type { IUser } from './user.entity.js';
import { LocationInput, MemberSummaryObject, ProfileInput, UserObject, UserTypeEnum, ViewerObject } from './user.types.js';

@Resolver()
export class UsersResolver {
  @Query(() => ViewerObject, { nullable: true, description: 'The signed-in member; null when signed out.' })
  async me(@Ctx() ctx: GraphQLContext): Promise<ViewerObject | null> {
    if (!ctx.viewer) return null;
    return ViewerObject.fromUser(ctx.services, await ctx.services.users.get(ctx.viewer.id));
  }

  @Query(() => UserObject, { nullable: true, description: 'A public profile by user name (any case); null when none.' })
  async user(@Arg('userName', () => String) userName: string, @Ctx() ctx: GraphQLContext): Promise<UserObject | null> {
    try {
      const view = await ctx.services.users.profile(userName, ctx.viewer?.id ?? null);
      return UserObject.from(ctx.services, view.user, view);
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  }

  @Query(() => [MemberSummaryObject], { description: 'Members whose display name or user name contains the text; at most 8.' })
  async searchMembers(@Arg('text', () => String) text: string, @Ctx() ctx: GraphQLContext): Promise<MemberSummaryObject[]> {
    requireViewer(ctx.viewer);
    return ctx.services.users.search(text);
  }

  private async viewerAfter(ctx: GraphQLContext, change: Promise<IUser>): Promise<ViewerObject> {
    return ViewerObject.fromUser(ctx.services, await change);
  }

  @Mutation(() => ViewerObject, { description: 'Sign-up step: the user name, unique regardless of case.' })
  setUserName(@Arg('userName', () => String) userName: string, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.users.setUserName(requireViewer(ctx.viewer).id, userName));
  }

  @Mutation(() => ViewerObject)
  setLocation(@Arg('location', () => LocationInput) location: LocationInput, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.users.setLocation(requireViewer(ctx.viewer).id, { ...location }));
  }

  @Mutation(() => ViewerObject)
  setUserType(@Arg('userType', () => UserTypeEnum) userType: string, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.users.setUserType(requireViewer(ctx.viewer).id, userType));
  }

  @Mutation(() => ViewerObject)
  agreeToConduct(@Arg('agreed', () => Boolean) agreed: boolean, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.users.agreeToConduct(requireViewer(ctx.viewer).id, agreed));
  }

  @Mutation(() => ViewerObject)
  setOptIn(@Arg('hasOptedIn', () => Boolean) hasOptedIn: boolean, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    const viewer = requireViewer(ctx.viewer);
    return this.viewerAfter(ctx, ctx.services.users.setOptIn(viewer.id, viewer.id, hasOptedIn));
  }

  @Mutation(() => ViewerObject, { description: 'Gives the member a random published mix as the current mix (none when there is none).' })
  assignRandomMix(@Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.library.assignRandomMix(requireViewer(ctx.viewer).id));
  }

  @Mutation(() => ViewerObject, { description: 'Display name, user type, bio. The image is uploaded through PATCH /api/user/update-user.' })
  updateProfile(@Arg('input', () => ProfileInput) input: ProfileInput, @Ctx() ctx: GraphQLContext): Promise<ViewerObject> {
    return this.viewerAfter(ctx, ctx.services.users.updateProfile(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Subscription(() => UserObject, {
    topics: Topics.ProfileUpdated,
    filter: ({ payload, args }: { payload: ProfileChangedEvent; args: { userName: string } }) =>
      payload.userName?.toLowerCase() === args.userName.toLowerCase(),
    description: 'Pushes a member’s profile whenever it changes.',
  })
  async profileUpdated(
    @Root() event: ProfileChangedEvent,
    @Arg('userName', () => String) _userName: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserObject> {
    return UserObject.from(ctx.services, await ctx.services.users.get(event.id));
  }
}

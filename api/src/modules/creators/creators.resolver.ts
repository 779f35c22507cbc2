import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { Lookup } from '../../graphql/limits.js';
import { requireViewer } from '../../shared/viewer.js';
import { creatorKey } from '../tracks/index.js';
import { TrackObject } from '../tracks/track.types.js';
import { UserObject } from '../users/user.types.js';
import { heldRef } from './creators.service.js';
import { ClaimCreatorInput, CreatorClaimObject, NameHolderObject, VerifiedNameObject } from './creators.types.js';

/** The GraphQL skin of creator claims (docs/creators.md#claims). */
@Resolver()
export class CreatorsResolver {
  @Mutation(() => CreatorClaimObject, { description: 'Claims a catalogue creator or label as you; a moderator decides.' })
  async claimCreator(
    @Arg('input', () => ClaimCreatorInput) input: ClaimCreatorInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CreatorClaimObject> {
    return CreatorClaimObject.from(await ctx.services.creators.claim(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Query(() => [CreatorClaimObject], { description: 'Your creator and label claims, newest first.' })
  async myCreatorClaims(@Ctx() ctx: GraphQLContext): Promise<CreatorClaimObject[]> {
    return (await ctx.services.creators.claimsOf(requireViewer(ctx.viewer).id)).map(CreatorClaimObject.from);
  }
}

/** A member's verified names: the badge on their profile. */
@Resolver(() => UserObject)
export class UserVerifiedNamesResolver {
  @Lookup()
  @FieldResolver(() => [VerifiedNameObject], { description: 'The creators and labels this member is verified as.' })
  async verifiedNames(@Root() user: UserObject, @Ctx() ctx: GraphQLContext): Promise<VerifiedNameObject[]> {
    return (await ctx.services.creators.heldBy(user.id)).map(VerifiedNameObject.from);
  }
}

/** The verified members behind a track's credits: its creator names link to their profiles. */
@Resolver(() => TrackObject)
export class TrackHoldersResolver {
  @Lookup()
  @FieldResolver(() => [NameHolderObject], { description: 'The credited creators and label held by a verified member.' })
  async nameHolders(@Root() track: TrackObject, @Ctx() ctx: GraphQLContext): Promise<NameHolderObject[]> {
    const names = [
      ...track.creators.map((creator) => ({ subject: 'creator' as const, key: creatorKey(creator), name: creator.name })),
      ...(track.label ? [{ subject: 'label' as const, key: creatorKey(track.label), name: track.label.name }] : []),
    ];
    const holders = await ctx.services.creators.holdersOf(names);
    return names.flatMap((name) => {
      const holder = holders.get(heldRef(name.subject, name.key));
      return holder?.userName
        ? [Object.assign(new NameHolderObject(), { subject: name.subject, name: name.name, userName: holder.userName })]
        : [];
    });
  }
}

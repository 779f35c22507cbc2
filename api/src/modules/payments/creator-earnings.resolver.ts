import { Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { requireViewer } from '../../shared/viewer.js';
import { CreatorEarningsObject, PayoutRunObject, PublicEarningsMonthObject } from './creator-earnings.types.js';
import { PaymentRedirectObject } from './payment.types.js';

/** The GraphQL skin of a creator's earnings and payouts, and the public aggregates (docs/creators.md#earnings). */
@Resolver()
export class CreatorEarningsResolver {
  @Query(() => CreatorEarningsObject, { description: 'Your earnings as a verified creator (FORBIDDEN for anyone else).' })
  async creatorEarnings(@Ctx() ctx: GraphQLContext): Promise<CreatorEarningsObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    const { payments } = ctx.services;
    const view = await payments.creatorEarnings.mine(viewerId);
    return CreatorEarningsObject.from(view, await payments.payouts.account(viewerId), ctx.services.config.PAYOUT_MINIMUM_CENTS);
  }

  @Query(() => [PublicEarningsMonthObject], { description: 'Per month, in aggregate: the creators’ 70%, paid out, waiting to be claimed.' })
  async publicEarnings(@Ctx() ctx: GraphQLContext): Promise<PublicEarningsMonthObject[]> {
    return (await ctx.services.payments.creatorEarnings.publicMonths()).map(PublicEarningsMonthObject.from);
  }

  @Mutation(() => PaymentRedirectObject, { description: 'Makes your payout account (once) and answers where to finish onboarding.' })
  async connectPayoutAccount(@Ctx() ctx: GraphQLContext): Promise<PaymentRedirectObject> {
    const { url } = await ctx.services.payments.payouts.connect(requireViewer(ctx.viewer).id);
    return Object.assign(new PaymentRedirectObject(), { redirect: url });
  }

  @Mutation(() => PayoutRunObject, { description: 'Runs this month’s payouts now (operators only); safe to run again.' })
  async runPayouts(@Ctx() ctx: GraphQLContext): Promise<PayoutRunObject> {
    return PayoutRunObject.from(await ctx.services.payments.payouts.runAsOperator(requireViewer(ctx.viewer).id));
  }
}

import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { requireViewer } from '../../shared/viewer.js';
import { MixObject } from '../mixes/mix.types.js';
import { BillingObject, CheckoutConfirmationObject, EarningsReportObject, PaymentRedirectObject } from './payment.types.js';

/** The GraphQL skin of payments: publishing on evidence, checkout and portal sessions, billing, creator earnings. */
@Resolver()
export class PaymentsResolver {
  @Mutation(() => MixObject, {
    description:
      'Publishes your draft (with its tracklist) on evidence only: a BETA code, a paid single purchase for it (sessionId: the checkout just paid, looked up at the provider), or an active subscription; PAYMENT_REQUIRED otherwise. Publishing twice answers the mix again.',
  })
  async publishMix(
    @Arg('mixId', () => ID) mixId: string,
    @Arg('code', () => String, { nullable: true }) code: string | null,
    @Arg('sessionId', () => String, { nullable: true }) sessionId: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MixObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    const mix = await ctx.services.payments.publish(viewerId, { mixId, code, sessionId });
    return MixObject.from(ctx.services, mix, { distanceKm: null, viewerId });
  }

  @Mutation(() => PaymentRedirectObject, {
    description: 'A checkout for one mix: $4.00 for 12 months of hosting (a draft), or 12 more months (your published mix).',
  })
  createSinglePurchaseSession(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<PaymentRedirectObject> {
    return ctx.services.payments.checkout.createSinglePurchaseSession(requireViewer(ctx.viewer).id, mixId);
  }

  @Mutation(() => PaymentRedirectObject, { description: 'A checkout for the subscription; mixId: the draft being uploaded, if any.' })
  createSubscriptionSession(
    @Arg('mixId', () => ID, { nullable: true }) mixId: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PaymentRedirectObject> {
    return ctx.services.payments.checkout.createSubscriptionSession(requireViewer(ctx.viewer).id, mixId);
  }

  @Mutation(() => PaymentRedirectObject, { description: 'The billing portal; BAD_USER_INPUT before you have paid for anything.' })
  createPortalSession(@Ctx() ctx: GraphQLContext): Promise<PaymentRedirectObject> {
    return ctx.services.payments.billing.createPortalSession(requireViewer(ctx.viewer).id);
  }

  @Mutation(() => CheckoutConfirmationObject, {
    description:
      'The success page’s return: looks your checkout session up at the provider and fulfils it when paid (as the webhook would).',
  })
  async confirmCheckoutSession(
    @Arg('sessionId', () => String) sessionId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CheckoutConfirmationObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    const fulfilment = await ctx.services.payments.checkout.confirm(viewerId, sessionId);
    const mix = fulfilment.mixId ? await ctx.services.mixes.viewById(fulfilment.mixId) : null;
    return CheckoutConfirmationObject.from(fulfilment, mix ? MixObject.from(ctx.services, mix, { distanceKm: null, viewerId }) : null);
  }

  @Query(() => BillingObject, { description: 'Your plan, subscription and published mixes with their hosting.' })
  async billing(@Ctx() ctx: GraphQLContext): Promise<BillingObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    return BillingObject.from(ctx.services, await ctx.services.payments.billing.of(viewerId), viewerId);
  }

  @Query(() => [String], { description: 'The months (YYYY-MM) the creator rewards ledger has lines for, newest first.' })
  earningsPeriods(@Ctx() ctx: GraphQLContext): Promise<string[]> {
    return ctx.services.payments.earnings.periods(requireViewer(ctx.viewer).id);
  }

  @Query(() => EarningsReportObject, { description: 'Creator earnings in a month (YYYY-MM); creator: one creator’s key or name.' })
  async earnings(
    @Arg('period', () => String) period: string,
    @Arg('creator', () => String, { nullable: true }) creator: string | null,
    @Arg('first', () => Int, { nullable: true, defaultValue: 100 }) first: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<EarningsReportObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    return EarningsReportObject.from(await ctx.services.payments.earnings.report(viewerId, { period, creator, first }));
  }
}

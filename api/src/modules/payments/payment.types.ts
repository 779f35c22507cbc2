import { Field, Float, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Services } from '../../services.js';
import { expiringInDays, isExpired } from '../mixes/index.js';
import { MixObject } from '../mixes/mix.types.js';
import type { BillingView } from './billing.service.js';
import type { Fulfilment } from './commands/fulfil-checkout.js';
import type { CreatorEarningView, EarningsView } from './earnings.service.js';

export enum CheckoutStatusEnum {
  OPEN = 'open',
  PAID = 'paid',
  EXPIRED = 'expired',
}
registerEnumType(CheckoutStatusEnum, { name: 'CheckoutStatus', description: 'Where a checkout session stands at the payment provider.' });

export enum PaymentKindEnum {
  SINGLE = 'single',
  SUBSCRIPTION = 'subscription',
}
registerEnumType(PaymentKindEnum, {
  name: 'PaymentKind',
  description: 'A single upload ($4.00, 12 months of hosting) or the subscription.',
});

export enum HostingSourceEnum {
  CODE = 'code',
  SINGLE = 'single',
  SUBSCRIPTION = 'subscription',
}
registerEnumType(HostingSourceEnum, {
  name: 'HostingSource',
  description: 'What hosts a published mix: a BETA code, a single purchase or the subscription.',
});

@ObjectType('PaymentRedirect', { description: 'Where to send the browser: the provider’s checkout or billing page (absolute URL).' })
export class PaymentRedirectObject {
  @Field(() => String) redirect!: string;
}

@ObjectType('CheckoutConfirmation', {
  description: 'A checkout session as the server found it at the provider (and fulfilled, when paid).',
})
export class CheckoutConfirmationObject {
  @Field(() => String) sessionId!: string;
  @Field(() => CheckoutStatusEnum) status!: CheckoutStatusEnum;
  @Field(() => PaymentKindEnum) kind!: PaymentKindEnum;
  @Field(() => MixObject, { nullable: true, description: 'The mix the session paid for, if any.' }) mix!: MixObject | null;

  static from(fulfilment: Fulfilment, mix: MixObject | null): CheckoutConfirmationObject {
    return Object.assign(new CheckoutConfirmationObject(), {
      sessionId: fulfilment.sessionId,
      status: fulfilment.status as CheckoutStatusEnum,
      kind: fulfilment.kind as PaymentKindEnum,
      mix,
    });
  }
}

@ObjectType('SubscriptionInfo', { description: 'Your latest subscription as the payment provider last told us.' })
export class SubscriptionInfoObject {
  @Field(() => String, { description: 'The provider’s status: active, trialing, past_due, canceled, ...' }) status!: string;
  @Field(() => Boolean, { description: 'Whether it hosts mixes and publishes new ones now.' }) active!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) currentPeriodEnd!: Date | null;
  @Field(() => Boolean, { description: 'Canceled: it ends at currentPeriodEnd.' }) cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) endedAt!: Date | null;
}

@ObjectType('HostedMix', { description: 'One of your published mixes and how it is hosted.' })
export class HostedMixObject {
  @Field(() => MixObject) mix!: MixObject;
  @Field(() => HostingSourceEnum) hosting!: HostingSourceEnum;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When hosting ends; null while an active subscription hosts it.' })
  expiresAt!: Date | null;
  @Field(() => Int, { nullable: true, description: 'Whole days of hosting left; null when it has no end.' }) expiringIn!: number | null;
  @Field(() => Boolean) isExpired!: boolean;
  @Field(() => Boolean, { description: 'Whether paying $4.00 again (createSinglePurchaseSession) adds 12 months.' }) canRenew!: boolean;
}

@ObjectType('Billing', { description: 'Your plan, subscription and hosted mixes.' })
export class BillingObject {
  @Field(() => Boolean, { description: 'No STRIPE_SECRET_KEY: checkout and billing are the local test-mode pages.' }) testMode!: boolean;
  @Field(() => Boolean, { description: 'You have an active subscription now.' }) subscribed!: boolean;
  @Field(() => SubscriptionInfoObject, { nullable: true }) subscription!: SubscriptionInfoObject | null;
  @Field(() => Boolean, { description: 'createPortalSession works (you have paid for something).' }) canOpenPortal!: boolean;
  @Field(() => Int) singlePurchaseCents!: number;
  @Field(() => Int, { description: 'The subscription’s price per month.' }) subscriptionCents!: number;
  @Field(() => Int, { description: 'Subscription-hosted mixes stay up this many days after the subscription ends.' }) graceDays!: number;
  @Field(() => String, { nullable: true, description: 'The BETA code anyone may use here, when this server accepts the well-known one.' })
  openBetaCode!: string | null;
  @Field(() => [HostedMixObject], { description: 'Your published mixes, soonest hosting end first.' }) mixes!: HostedMixObject[];

  static from(services: Services, billing: BillingView, viewerId: string): BillingObject {
    const now = new Date();
    return Object.assign(new BillingObject(), {
      ...billing,
      mixes: billing.mixes.map((hosted) =>
        Object.assign(new HostedMixObject(), {
          mix: MixObject.from(services, hosted.mix, { distanceKm: null, viewerId }),
          hosting: hosted.hosting as HostingSourceEnum,
          expiresAt: hosted.mix.expiresAt,
          expiringIn: expiringInDays(hosted.mix, now),
          isExpired: isExpired(hosted.mix, now),
          canRenew: hosted.canRenew,
        }),
      ),
    });
  }
}

@ObjectType('CreatorEarning', { description: 'What one music creator earned in a period.' })
export class CreatorEarningObject {
  @Field(() => String, { description: 'The catalogue creator id (id:...) or folded name (name:...).' }) creatorKey!: string;
  @Field(() => String) creatorName!: string;
  @Field(() => Int) amountCents!: number;
  @Field(() => Float, { description: 'Subscriber listening credited to this creator.' }) listenedSeconds!: number;
  @Field(() => Int, { description: 'Subscribers whose money reached this creator.' }) subscribers!: number;

  static from(view: CreatorEarningView): CreatorEarningObject {
    return Object.assign(new CreatorEarningObject(), view);
  }
}

@ObjectType('EarningsReport', {
  description:
    'The creator rewards ledger for a month: 70% of each settled subscription payment, split user-centrically over the creators each subscriber listened to.',
})
export class EarningsReportObject {
  @Field(() => String, { description: 'YYYY-MM: the month the paid periods started in.' }) period!: string;
  @Field(() => Int, { description: 'Subscription payments settled for the period.' }) paidCents!: number;
  @Field(() => Int, { description: 'The creators’ 70% (per payment, rounded half up): the creators’ cents plus unallocatedCents.' })
  creatorsCents!: number;
  @Field(() => Int, {
    description: 'From subscribers who listened to nothing: kept by mixcrate, never spread over other subscribers’ creators.',
  })
  unallocatedCents!: number;
  @Field(() => Int, { description: 'Earned by creators nobody is verified for yet: held until a member is.' }) unclaimedCents!: number;
  @Field(() => Int, { description: 'Paid to verified creators by payouts.' }) paidOutCents!: number;
  @Field(() => Int) creatorCount!: number;
  @Field(() => [CreatorEarningObject], { description: 'Largest first (up to `first`).' }) creators!: CreatorEarningObject[];

  static from(view: EarningsView): EarningsReportObject {
    return Object.assign(new EarningsReportObject(), { ...view, creators: view.creators.map(CreatorEarningObject.from) });
  }
}

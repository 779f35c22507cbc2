import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { CreatorEarningsView, PublicMonthView } from './creator-earnings.service.js';
import type { PayoutAccountView, PayoutRun } from './payouts.service.js';

@ObjectType('CreatorTrackLine', {
  simpleResolvers: true,
  description: 'One track’s part of a creator name’s month. No track (null id and title): settled before per-track lines.',
})
export class CreatorTrackLineObject {
  @Field(() => String, { nullable: true }) trackId!: string | null;
  @Field(() => String, { nullable: true, description: 'The title the track had when the month was settled.' }) title!: string | null;
  @Field(() => Int) amountCents!: number;
  @Field(() => Float) listenedSeconds!: number;
  @Field(() => Int, { description: 'Subscribers whose listening to this track paid this.' }) subscribers!: number;
  @Field(() => Int) paidCents!: number;
}

@ObjectType('CreatorMonth', { simpleResolvers: true, description: 'One of your creator names in one month of the ledger.' })
export class CreatorMonthObject {
  @Field(() => String) period!: string;
  @Field(() => String) creatorName!: string;
  @Field(() => Int) amountCents!: number;
  @Field(() => Float) listenedSeconds!: number;
  @Field(() => Int, { description: 'Subscribers whose listening paid this.' }) subscribers!: number;
  @Field(() => Int, { description: 'Of the amount, what a payout has paid.' }) paidCents!: number;
  @Field(() => [CreatorTrackLineObject], { description: 'The amount per track: they add up to exactly amountCents.' })
  tracks!: CreatorTrackLineObject[];
}

@ObjectType('CreatorPayout', { simpleResolvers: true })
export class CreatorPayoutObject {
  @Field(() => String) period!: string;
  @Field(() => Int) amountCents!: number;
  @Field(() => String, { description: 'pending, paid or failed (tried again by the next run).' }) status!: string;
  @Field(() => String, { nullable: true, description: 'The transfer that paid it.' }) transferRef!: string | null;
  @Field(() => Date, { nullable: true }) paidAt!: Date | null;
}

@ObjectType('PayoutAccount', { simpleResolvers: true })
export class PayoutAccountObject {
  @Field(() => String, { description: 'stripe or test.' }) provider!: string;
  @Field(() => String, { description: 'onboarding, enabled or restricted.' }) status!: string;

  static from(view: PayoutAccountView | null): PayoutAccountObject | null {
    return view ? Object.assign(new PayoutAccountObject(), view) : null;
  }
}

@ObjectType('CreatorEarnings', { description: 'Your earnings as a verified creator: your ledger lines, balance and payouts.' })
export class CreatorEarningsObject {
  @Field(() => [CreatorMonthObject]) months!: CreatorMonthObject[];
  @Field(() => Int) totalCents!: number;
  @Field(() => Int) paidCents!: number;
  @Field(() => Int, { description: 'Settled and not yet paid: the next payout run pays it once it reaches the minimum.' })
  balanceCents!: number;
  @Field(() => Int, { description: 'The smallest balance a payout run pays (PAYOUT_MINIMUM_CENTS).' }) minimumCents!: number;
  @Field(() => [CreatorPayoutObject]) payouts!: CreatorPayoutObject[];
  @Field(() => PayoutAccountObject, { nullable: true }) payoutAccount!: PayoutAccountObject | null;

  static from(view: CreatorEarningsView, account: PayoutAccountView | null, minimumCents: number): CreatorEarningsObject {
    return Object.assign(new CreatorEarningsObject(), {
      ...view,
      minimumCents,
      months: view.months.map((month) =>
        Object.assign(new CreatorMonthObject(), {
          ...month,
          tracks: month.tracks.map((track) => Object.assign(new CreatorTrackLineObject(), track)),
        }),
      ),
      payouts: view.payouts.map((payout) => Object.assign(new CreatorPayoutObject(), payout)),
      payoutAccount: PayoutAccountObject.from(account),
    });
  }
}

@ObjectType('PublicEarningsMonth', { simpleResolvers: true, description: 'One month of creator money, in aggregate only.' })
export class PublicEarningsMonthObject {
  @Field(() => String) period!: string;
  @Field(() => Int, { description: '70% of the month’s settled subscription revenue.' }) creatorsCents!: number;
  @Field(() => Int) paidOutCents!: number;
  @Field(() => Int, { description: 'Earned by creators nobody has claimed yet: held for them.' }) waitingCents!: number;

  static from(view: PublicMonthView): PublicEarningsMonthObject {
    return Object.assign(new PublicEarningsMonthObject(), view);
  }
}

@ObjectType('PayoutRun')
export class PayoutRunObject {
  @Field(() => String) period!: string;
  @Field(() => Int) paid!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) skipped!: number;

  static from(run: PayoutRun): PayoutRunObject {
    return Object.assign(new PayoutRunObject(), run);
  }
}

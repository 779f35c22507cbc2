import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import type { Services } from '../../services.js';
import { MixObject } from '../mixes/mix.types.js';
import type { Recommendation } from './recommendations.service.js';

/** Why a mix is in the "For you" row (docs/home-feed.md#for-you). */
export enum RecommendationReasonEnum {
  NEW_FROM_FOLLOWED = 'new_from_followed',
  SAVED = 'saved',
  FINISHED = 'finished',
  POPULAR_NEAR_YOU = 'popular_near_you',
  POPULAR = 'popular',
}
registerEnumType(RecommendationReasonEnum, {
  name: 'RecommendationReason',
  description: 'Why a mix is recommended, in the order the "For you" row is filled.',
  valuesConfig: {
    NEW_FROM_FOLLOWED: { description: 'Published in the last 30 days by a member you follow.' },
    SAVED: { description: 'Members who saved a mix you saved (relatedMix) saved or finished this one.' },
    FINISHED: { description: 'Members who finished a mix you finished (relatedMix) saved or finished this one.' },
    POPULAR_NEAR_YOU: { description: 'Listened to this week, weighted by distance from your cell.' },
    POPULAR: { description: 'Listened to this week (no location to weigh by).' },
  },
});

@ObjectType('RelatedMix', { simpleResolvers: true, description: 'The mix a reason names: its id and title.' })
export class RelatedMixObject {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
}

@ObjectType('Recommendation', { simpleResolvers: true, description: 'One card of the "For you" row, with why it is there.' })
export class RecommendationObject {
  @Field(() => MixObject) mix!: MixObject;
  @Field(() => RecommendationReasonEnum) reason!: RecommendationReasonEnum;
  @Field(() => String, { description: 'The reason in words: "New from …", "Because you saved …", "Popular near you".' })
  reasonText!: string;
  @Field(() => RelatedMixObject, { nullable: true, description: 'The mix you saved or finished that led here (SAVED, FINISHED).' })
  relatedMix!: RelatedMixObject | null;

  static from(services: Services, item: Recommendation, viewerId: string | null): RecommendationObject {
    return Object.assign(new RecommendationObject(), {
      mix: MixObject.from(services, item.mix, { distanceKm: item.distanceKm, viewerId, savedByViewer: false }),
      reason: item.reason.kind as RecommendationReasonEnum,
      reasonText: item.reason.text,
      relatedMix:
        item.relatedMixId && item.reason.relatedMixTitle !== null
          ? Object.assign(new RelatedMixObject(), { id: item.relatedMixId, title: item.reason.relatedMixTitle })
          : null,
    });
  }
}

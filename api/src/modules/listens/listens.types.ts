import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('MixStats', { description: 'Stats panel (docs/mix-page.md#stats).' })
export class MixStatsObject {
  @Field(() => Int, { description: 'Distinct members who listened.' }) listeners!: number;
  @Field(() => Int, { description: 'Listens, members’ and anonymous.' }) listens!: number;
  @Field(() => String, { description: 'h:mm listened, over listens that ended.' }) hours!: string;
  @Field(() => Int) saves!: number;
  @Field(() => Int) plays!: number;
}

@ObjectType('Listen')
export class ListenObject {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true, description: 'Null for anonymous listens on shared pages.' }) userId!: string | null;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => Date) start!: Date;
  @Field(() => Date, { nullable: true }) end!: Date | null;
}

import { Field, ObjectType } from 'type-graphql';

/** Relay-style page information shared by every connection. */
@ObjectType('PageInfo', { simpleResolvers: true })
export class PageInfoObject {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page; null on an empty page.' })
  endCursor!: string | null;
}

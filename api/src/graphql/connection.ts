import { Field, ObjectType } from 'type-graphql';

/** Relay-style page information shared by every connection. */
@ObjectType('PageInfo', { simpleResolvers: true })
export class PageInfoObject {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean, { description: 'Whether items come before this page: true when it was asked for `after` a cursor.' })
  hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'The first edge’s cursor; null on an empty page.' })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page; null on an empty page.' })
  endCursor!: string | null;
}

/**
 * The page information of a page asked for with `first`/`after`: items precede it exactly when it starts after a
 * cursor (that cursor's item at least), which Relay lets a forward page report without counting.
 */
export function pageInfoOf(edges: readonly { cursor: string }[], hasNextPage: boolean, after: string | null | undefined): PageInfoObject {
  return {
    hasNextPage,
    hasPreviousPage: Boolean(after),
    startCursor: edges.at(0)?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  };
}

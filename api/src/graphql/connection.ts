import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { PageEnds } from '../shared/cursor.js';
import { CURSOR_PAGE_DEFAULT_SIZE } from '../shared/inputs.js';

/** Relay-style page information shared by every connection. */
@ObjectType('PageInfo', { simpleResolvers: true })
export class PageInfoObject {
  @Field(() => Boolean, {
    description: 'Whether items follow this page: counted when paging forward, true when asked for `before` a cursor.',
  })
  hasNextPage!: boolean;
  @Field(() => Boolean, {
    description: 'Whether items come before this page: counted when paging backward, true when asked for `after` a cursor.',
  })
  hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `before` to get the previous page; null on an empty page.' })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page; null on an empty page.' })
  endCursor!: string | null;
}

/**
 * The paging arguments of every connection (Relay cursor connections): `first`/`after` pages forward, `last`/`before`
 * backward; parsed by the services with `cursorPage`.
 */
@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    description: `How many items from the start, or after \`after\` (default ${CURSOR_PAGE_DEFAULT_SIZE}).`,
  })
  first!: number | null;
  @Field(() => String, { nullable: true, description: 'The `endCursor` (or any cursor) of an earlier page: the items after it.' })
  after!: string | null;
  @Field(() => Int, { nullable: true, description: 'How many items from the end, or just before `before`: backward paging.' })
  last!: number | null;
  @Field(() => String, { nullable: true, description: 'The `startCursor` (or any cursor) of an earlier page: the items before it.' })
  before!: string | null;
}

/** The page information of a page of edges, in list order, that sits where `ends` says. */
export function pageInfoOf(edges: readonly { cursor: string }[], ends: PageEnds): PageInfoObject {
  return {
    hasNextPage: ends.hasNextPage,
    hasPreviousPage: ends.hasPreviousPage,
    startCursor: edges.at(0)?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  };
}

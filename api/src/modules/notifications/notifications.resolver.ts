import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { PageArgs, pageInfoOf } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { Topics } from '../../graphql/topics.js';
import { requireViewer } from '../../shared/viewer.js';
import { FollowEventObject, NotificationConnectionObject, NotificationObject } from './notification.types.js';
import type { FollowEvent } from './notifications.service.js';

@Resolver()
export class NotificationsResolver {
  @Query(() => NotificationConnectionObject, { description: 'The signed-in member’s notifications, newest first.' })
  async notifications(@Args(() => PageArgs) paging: PageArgs, @Ctx() ctx: GraphQLContext): Promise<NotificationConnectionObject> {
    const page = await ctx.services.notifications.page(requireViewer(ctx.viewer).id, paging);
    const edges = page.items.map((item) => ({ node: NotificationObject.from(item), cursor: item.cursor }));
    return {
      totalCount: page.totalCount,
      unreadCount: page.unreadCount,
      edges,
      nodes: edges.map((edge) => edge.node),
      pageInfo: pageInfoOf(edges, page),
    };
  }

  @Query(() => Int, { description: 'How many of the signed-in member’s notifications are unread.' })
  unreadNotificationCount(@Ctx() ctx: GraphQLContext): Promise<number> {
    return ctx.services.notifications.unreadCount(requireViewer(ctx.viewer).id);
  }

  @Mutation(() => NotificationObject, { description: 'Marks one of the member’s notifications read (again changes nothing).' })
  async markNotificationRead(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<NotificationObject> {
    return NotificationObject.from(await ctx.services.notifications.markRead(requireViewer(ctx.viewer).id, id));
  }

  @Mutation(() => Int, { description: 'Marks all the member’s notifications read; answers how many were unread.' })
  markAllNotificationsRead(@Ctx() ctx: GraphQLContext): Promise<number> {
    return ctx.services.notifications.markAllRead(requireViewer(ctx.viewer).id);
  }

  @Subscription(() => FollowEventObject, {
    description: 'Someone followed or unfollowed the signed-in member: pushed to that member alone, as it happens.',
    subscribe: ({ context }) => {
      const ctx = context as GraphQLContext;
      const viewer = requireViewer(ctx.viewer);
      if (!ctx.pubSub) throw new Error('No PubSub for subscriptions');
      return ctx.pubSub.subscribe(Topics.FollowEvent, viewer.id);
    },
  })
  followEvents(@Root() event: FollowEvent): FollowEventObject {
    const notification = NotificationObject.from(event.notification);
    return Object.assign(new FollowEventObject(), {
      kind: notification.kind,
      follower: notification.actor,
      notification,
      unreadCount: event.unreadCount,
    });
  }
}

import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoObject } from '../../graphql/connection.js';
import { UserObject } from '../users/user.types.js';

export enum FollowCodeEnum {
  FOLLOWED = 'FOLLOWED',
  UNFOLLOWED = 'UNFOLLOWED',
}
registerEnumType(FollowCodeEnum, { name: 'FollowCode', description: 'What a follow toggle did.' });

@ObjectType('FollowEdge')
export class FollowEdgeObject {
  @Field(() => UserObject) node!: UserObject;
  @Field(() => String) cursor!: string;
  @Field(() => Float, { nullable: true, description: 'Kilometres between the viewer and this member; null when unknown.' })
  distanceKm!: number | null;
}

@ObjectType('FollowConnection')
export class FollowConnectionObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => [FollowEdgeObject]) edges!: FollowEdgeObject[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;
}

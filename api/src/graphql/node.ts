import { Field, ID, InterfaceType } from 'type-graphql';

/**
 * Relay's Node: what `node(id:)` and `nodes(ids:)` refetch. Every id is a UUID drawn at random, so ids are already
 * unique across mixes, members and tracks (Relay's global ids): clients keep the ids they have, and one id names one
 * thing whatever its type. Implemented by Mix, User and Track (type-graphql resolves the type by class).
 */
@InterfaceType('Node', { description: 'An object with a globally unique id, refetchable with `node(id:)`.' })
export abstract class NodeInterface {
  @Field(() => ID, { description: 'Unique across every type (a UUID).' })
  id!: string;
}

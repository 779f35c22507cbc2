import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';

export const depthLimitRule = (maxDepth: number) => depthLimit(maxDepth);

/** Refuses operations whose estimated cost (one per field, lists multiplied by their page size) exceeds the limit. */
export function costLimitPlugin(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const cost = getComplexity({
            schema,
            operationName: request.operationName,
            query: document,
            variables: request.variables,
            estimators: [
              ({ args, childComplexity }) => {
                const pageSize = typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : 1;
                return 1 + childComplexity * Math.max(1, pageSize);
              },
              simpleEstimator({ defaultComplexity: 1 }),
            ],
          });
          if (cost > maxCost) {
            throw new GraphQLError(`This query costs ${cost}, more than the limit of ${maxCost}. Ask for fewer fields or smaller pages.`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

import { GraphQLError } from 'graphql';
import { parseGid } from './gid';

// Pieces shared by the catalogue resolvers (admin-resolvers.ts) and the order resolvers
// (order-resolvers.ts).

/** Malformed ids are an error in Shopify; a well-formed id of another type or unknown id is null. */
export function requireGid(id: string): { type: string; legacyId: string } {
  const gid = parseGid(id);
  if (!gid) {
    throw new GraphQLError(`Invalid global id '${id}'`, {
      extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' },
    });
  }
  return gid;
}

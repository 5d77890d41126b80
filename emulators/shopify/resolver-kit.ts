import { GraphQLError, type GraphQLFieldResolver } from 'graphql';
import type { AdminContext } from './admin-resolvers';
import type { EmulatorProduct, EmulatorVariant } from './emulator-state';
import { parseGid } from './gid';

// Pieces shared by the catalogue resolvers (admin-resolvers.ts) and the order resolvers
// (order-resolvers.ts).

export type Resolver<TParent = unknown, TArgs = Record<string, unknown>> = GraphQLFieldResolver<TParent, AdminContext, TArgs>;

// Variants need their product (displayName, `product` field, image), so resolvers pass this
// small ref around instead of the bare state record. `__typename` lets graphql-js' default type
// resolver pick the concrete type for the Node interface.
export interface VariantRef {
  __typename: 'ProductVariant';
  product: EmulatorProduct;
  variant: EmulatorVariant;
  position: number;
}

export const variantRefs = (product: EmulatorProduct): VariantRef[] =>
  product.variants.map((variant, i) => ({ __typename: 'ProductVariant', product, variant, position: i + 1 }));

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

import { Model, snakeCaseMappers, type RelationMappings } from 'objection';

export interface ImageJson {
  url: string;
  alt: string | null;
}

export class VariantModel extends Model {
  static tableName = 'variants';
  static get columnNameMappers() {
    return snakeCaseMappers();
  }

  id!: number;
  productId!: number;
  shopifyGid!: string;
  shopifyId!: string;
  title!: string;
  sku!: string | null;
  position!: number;
  shopifyPrice!: string | null;
  inventoryQuantity!: number | null;
  availableForSale!: boolean;
  imageUrl!: string | null;
  removedAt!: Date | null;
  pogPrice!: string | null;
  isActive!: boolean;
  availableStock!: number | null;
  isSoldOut!: boolean;
  updatedAt!: Date;
}

export class ProductModel extends Model {
  static tableName = 'products';
  static get columnNameMappers() {
    return snakeCaseMappers();
  }

  id!: number;
  shopifyGid!: string;
  shopifyId!: string;
  handle!: string;
  title!: string;
  customTitle!: string | null;
  descriptionHtml!: string;
  vendor!: string;
  productType!: string;
  tags!: string[];
  images!: ImageJson[];
  featuredImageUrl!: string | null;
  shopifyStatus!: string;
  shopifyUpdatedAt!: Date | null;
  removedAt!: Date | null;
  lastSyncedAt!: Date | null;
  updatedAt!: Date;
  variants?: VariantModel[];

  static get relationMappings(): RelationMappings {
    return {
      variants: {
        relation: Model.HasManyRelation,
        modelClass: VariantModel,
        join: { from: 'products.id', to: 'variants.product_id' },
      },
    };
  }
}

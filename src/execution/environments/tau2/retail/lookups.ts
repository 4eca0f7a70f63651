/**
 * Retail lookups (tau2's `RetailTools._get_*` helpers and its read tools), with tau2's error texts.
 * A helper returns the session's entity; pass `forWrite` to get the session's own writable copy.
 */
import type { Entity, SessionDatabase } from '../database.js';
import { pyJsonString } from '../python-json.js';
import { pyHasKey, pyLower, ToolError } from '../python.js';
import type { Tau2Tool } from '../toolkit.js';
import { calculate } from '../calculate.js';
import { Order, Product, User, Variant } from './model.js';

/** `_get_order`: the order, or "Order not found". */
export function getOrder(db: SessionDatabase, orderId: unknown, forWrite = false): Entity {
  if (!db.has('orders', orderId)) throw new ToolError('Order not found');
  return forWrite
    ? db.write('orders', orderId as string)
    : (db.read('orders', orderId as string) as Entity);
}

/** `_get_user`: the user, or "User not found". */
export function getUser(db: SessionDatabase, userId: unknown, forWrite = false): Entity {
  if (!db.has('users', userId)) throw new ToolError('User not found');
  return forWrite
    ? db.write('users', userId as string)
    : (db.read('users', userId as string) as Entity);
}

/** `_get_product`: the product, or "Product not found". */
export function getProduct(db: SessionDatabase, productId: unknown): Entity {
  if (!db.has('products', productId)) throw new ToolError('Product not found');
  return db.read('products', productId as string) as Entity;
}

/** `key in mapping` for a nested dict of an entity. */
export function hasMember(mapping: unknown, key: unknown): boolean {
  const object = mapping as Record<string, unknown>;
  return pyHasKey({ has: (name) => Object.hasOwn(object, name) }, key);
}

/** `_get_variant`: the variant of a product, or "Variant not found". */
export function getVariant(db: SessionDatabase, productId: unknown, variantId: unknown): Entity {
  const variants = getProduct(db, productId).variants as Record<string, Entity>;
  if (!hasMember(variants, variantId)) throw new ToolError('Variant not found');
  return variants[variantId as string]!;
}

/** `_get_payment_method`: one of a user's payment methods (from `user`, which may be a writable copy). */
export function getPaymentMethod(
  db: SessionDatabase,
  userId: unknown,
  paymentMethodId: unknown,
  user = getUser(db, userId),
): Entity {
  const methods = user.payment_methods as Record<string, Entity>;
  if (!hasMember(methods, paymentMethodId)) throw new ToolError('Payment method not found');
  return methods[paymentMethodId as string]!;
}

function getItem(db: SessionDatabase, itemId: unknown): Entity {
  for (const product of db.values('products')) {
    const variants = product.variants as Record<string, Entity>;
    if (hasMember(variants, itemId)) return variants[itemId as string]!;
  }
  throw new ToolError('Item not found');
}

function findUser(db: SessionDatabase, matches: (user: Entity) => boolean): string {
  for (const key of db.keys('users')) if (matches(db.read('users', key) as Entity)) return key;
  throw new ToolError('User not found');
}

const name = (user: Entity) => user.name as { first_name: string; last_name: string };

/** The retail tools that read (and the two generic ones). */
export const RETAIL_READ_TOOLS = {
  calculate: {
    kind: 'generic',
    params: ['expression'],
    run: (_db, args) => calculate(args.expression),
  },
  find_user_id_by_name_zip: {
    kind: 'read',
    params: ['first_name', 'last_name', 'zip'],
    run: (db, args) =>
      findUser(
        db,
        (user) =>
          name(user).first_name.toLowerCase() === pyLower(args.first_name) &&
          name(user).last_name.toLowerCase() === pyLower(args.last_name) &&
          (user.address as Entity).zip === args.zip,
      ),
  },
  find_user_id_by_email: {
    kind: 'read',
    params: ['email'],
    run: (db, args) =>
      findUser(db, (user) => (user.email as string).toLowerCase() === pyLower(args.email)),
  },
  get_order_details: {
    kind: 'read',
    params: ['order_id'],
    run: (db, args) => ({ value: getOrder(db, args.order_id), schema: Order }),
  },
  get_product_details: {
    kind: 'read',
    params: ['product_id'],
    run: (db, args) => ({ value: getProduct(db, args.product_id), schema: Product }),
  },
  get_item_details: {
    kind: 'read',
    params: ['item_id'],
    run: (db, args) => ({ value: getItem(db, args.item_id), schema: Variant }),
  },
  get_user_details: {
    kind: 'read',
    params: ['user_id'],
    run: (db, args) => ({ value: getUser(db, args.user_id), schema: User }),
  },
  list_all_product_types: {
    kind: 'read',
    params: [],
    run: (db) => {
      const byName = new Map<string, string>();
      for (const product of db.values('products'))
        byName.set(product.name as string, product.product_id as string);
      // json.dumps(sort_keys=True): keys by code point; the value is text, not a model.
      const sorted = [...byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${sorted.map((key) => `${pyJsonString(key)}: ${pyJsonString(byName.get(key)!)}`).join(', ')}}`;
    },
  },
  transfer_to_human_agents: {
    kind: 'generic',
    params: ['summary'],
    run: () => 'Transfer successful',
  },
} satisfies Record<string, Tau2Tool>;

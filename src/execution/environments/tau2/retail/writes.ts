/**
 * The retail tools that change the database, step for step as tau2's `RetailTools` does them —
 * checks in the same order, so a call that fails half-way leaves the same partial change, and
 * tau2's quirks kept (an item modification prices every item at the last new variant's price).
 */
import type { Entity, SessionDatabase } from '../database.js';
import { validateModel } from '../pydantic.js';
import {
  pyCount,
  pyEquals,
  pyIter,
  pyLen,
  pyRound,
  pySorted,
  pyStr,
  ToolError,
} from '../python.js';
import type { Tau2Tool } from '../toolkit.js';
import { getOrder, getPaymentMethod, getUser, getVariant } from './lookups.js';
import { Order, User, UserAddress } from './model.js';

type Item = { item_id: string; product_id: string; price: number; options: Record<string, string> };
type Payment = { transaction_type: string; amount: number; payment_method_id: string };

const isGiftCard = (method: Entity) => method.source === 'gift_card';
const items = (order: Entity) => order.items as Item[];
const payments = (order: Entity) => order.payment_history as Payment[];

/** Every id of `itemIds` must occur in the order at least as often as in the list. */
function checkItemsExist(
  order: Entity,
  itemIds: unknown,
  message: (itemId: unknown) => string,
): void {
  const all = items(order).map((item) => item.item_id);
  for (const itemId of pyIter(itemIds))
    if (pyCount(itemIds, itemId) > pyCount(all, itemId)) throw new ToolError(message(itemId));
}

function zip(a: unknown, b: unknown): [unknown, unknown][] {
  const right = pyIter(b);
  return pyIter(a)
    .slice(0, right.length)
    .map((item, index) => [item, right[index]]);
}

/** The new variants of an item change and the total price difference (new minus old). */
function priceChange(
  db: SessionDatabase,
  order: Entity,
  itemIds: unknown,
  newItemIds: unknown,
  refuseSame: boolean,
): { difference: number; last: Entity | null } {
  let difference = 0;
  let last: Entity | null = null;
  for (const [itemId, newItemId] of zip(itemIds, newItemIds)) {
    if (refuseSame && pyEquals(itemId, newItemId))
      throw new ToolError('The new item id should be different from the old item id');
    const item = items(order).find((candidate) => pyEquals(candidate.item_id, itemId));
    if (!item) throw new ToolError(`Item ${pyStr(itemId)} not found`);
    const variant = getVariant(db, item.product_id, newItemId);
    if (!variant.available)
      throw new ToolError(`New item ${pyStr(newItemId)} not found or available`);
    difference += (variant.price as number) - item.price;
    last = variant;
  }
  return { difference, last };
}

function cancelPendingOrder(db: SessionDatabase, args: Record<string, unknown>) {
  const order = getOrder(db, args.order_id, true);
  if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
  if (Array.isArray(args.reason) || (args.reason !== null && typeof args.reason === 'object'))
    throw new ToolError(`unhashable type: '${Array.isArray(args.reason) ? 'list' : 'dict'}'`);
  if (args.reason !== 'no longer needed' && args.reason !== 'ordered by mistake')
    throw new ToolError('Invalid reason');
  const refunds: Payment[] = [];
  for (const payment of payments(order)) {
    refunds.push({
      transaction_type: 'refund',
      amount: payment.amount,
      payment_method_id: payment.payment_method_id,
    });
    const user = getUser(db, order.user_id);
    const method = getPaymentMethod(db, user.user_id, payment.payment_method_id);
    if (isGiftCard(method)) {
      const own = getPaymentMethod(
        db,
        user.user_id,
        payment.payment_method_id,
        getUser(db, order.user_id, true),
      );
      own.balance = pyRound((own.balance as number) + payment.amount, 2);
    }
  }
  Object.assign(order, { status: 'cancelled', cancel_reason: args.reason });
  payments(order).push(...refunds);
  return { value: order, schema: Order };
}

function exchangeDeliveredOrderItems(db: SessionDatabase, args: Record<string, unknown>) {
  const order = getOrder(db, args.order_id);
  if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
  checkItemsExist(order, args.item_ids, (itemId) => `Number of ${pyStr(itemId)} not found.`);
  if (pyLen(args.item_ids) !== pyLen(args.new_item_ids))
    throw new ToolError('The number of items to be exchanged should match.');
  const difference = pyRound(
    priceChange(db, order, args.item_ids, args.new_item_ids, false).difference,
    2,
  );
  const method = getPaymentMethod(db, order.user_id, args.payment_method_id);
  if (isGiftCard(method) && (method.balance as number) < difference)
    throw new ToolError('Insufficient gift card balance to pay for the price difference');
  const own = getOrder(db, args.order_id, true);
  Object.assign(own, {
    status: 'exchange requested',
    exchange_items: pySorted(args.item_ids),
    exchange_new_items: pySorted(args.new_item_ids),
    exchange_payment_method_id: args.payment_method_id,
    exchange_price_difference: difference,
  });
  return { value: own, schema: Order };
}

function modifyPendingOrderItems(db: SessionDatabase, args: Record<string, unknown>) {
  const order = getOrder(db, args.order_id);
  if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
  checkItemsExist(order, args.item_ids, (itemId) => `${pyStr(itemId)} not found`);
  if (pyLen(args.item_ids) !== pyLen(args.new_item_ids))
    throw new ToolError('The number of items to be exchanged should match');
  const { difference, last } = priceChange(db, order, args.item_ids, args.new_item_ids, true);
  const method = getPaymentMethod(db, order.user_id, args.payment_method_id);
  if (isGiftCard(method) && (method.balance as number) < difference)
    throw new ToolError('Insufficient gift card balance to pay for the new item');
  const own = getOrder(db, args.order_id, true);
  payments(own).push({
    transaction_type: difference > 0 ? 'payment' : 'refund',
    amount: Math.abs(difference),
    payment_method_id: args.payment_method_id as string,
  });
  if (isGiftCard(method)) {
    const card = getPaymentMethod(
      db,
      order.user_id,
      args.payment_method_id,
      getUser(db, order.user_id, true),
    );
    card.balance = pyRound((card.balance as number) - difference, 2);
  }
  for (const [itemId, newItemId] of zip(args.item_ids, args.new_item_ids)) {
    const item = items(own).find((candidate) => pyEquals(candidate.item_id, itemId));
    if (!item) throw new ToolError(`Item ${pyStr(itemId)} not found`);
    // tau2 prices (and describes) every modified item with the loop's last variant.
    Object.assign(item, {
      item_id: newItemId,
      price: last!.price,
      options: structuredClone(last!.options),
    });
  }
  own.status = 'pending (item modified)';
  return { value: own, schema: Order };
}

function modifyPendingOrderPayment(db: SessionDatabase, args: Record<string, unknown>) {
  const order = getOrder(db, args.order_id);
  if (!(order.status as string).includes('pending'))
    throw new ToolError('Non-pending order cannot be modified');
  const method = getPaymentMethod(db, order.user_id, args.payment_method_id);
  const history = payments(order);
  if (history.length !== 1 || history[0]!.transaction_type !== 'payment')
    throw new ToolError('There should be exactly one payment for a pending order');
  if (history[0]!.payment_method_id === args.payment_method_id)
    throw new ToolError('The new payment method should be different from the current one');
  const amount = history[0]!.amount;
  if (isGiftCard(method) && (method.balance as number) < amount)
    throw new ToolError('Insufficient gift card balance to pay for the order');
  const own = getOrder(db, args.order_id, true);
  const original = payments(own)[0]!.payment_method_id;
  payments(own).push(
    { transaction_type: 'payment', amount, payment_method_id: args.payment_method_id as string },
    { transaction_type: 'refund', amount, payment_method_id: original },
  );
  const user = getUser(db, order.user_id, true);
  const card = getPaymentMethod(db, order.user_id, args.payment_method_id, user);
  if (isGiftCard(card)) card.balance = pyRound((card.balance as number) - amount, 2);
  const old = getPaymentMethod(db, order.user_id, original, user);
  if (isGiftCard(old)) old.balance = pyRound((old.balance as number) + amount, 2);
  return { value: own, schema: Order };
}

const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'state', 'country', 'zip'] as const;
const address = (args: Record<string, unknown>) =>
  validateModel(
    'UserAddress',
    UserAddress,
    Object.fromEntries(ADDRESS_FIELDS.map((key) => [key, args[key]])),
  );

function returnDeliveredOrderItems(db: SessionDatabase, args: Record<string, unknown>) {
  const order = getOrder(db, args.order_id);
  if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
  const user = getUser(db, order.user_id);
  const method = getPaymentMethod(db, user.user_id, args.payment_method_id);
  if (!isGiftCard(method) && args.payment_method_id !== payments(order)[0]!.payment_method_id)
    throw new ToolError('Payment method should be the original payment method');
  checkItemsExist(order, args.item_ids, () => 'Some item not found');
  const own = getOrder(db, args.order_id, true);
  Object.assign(own, {
    status: 'return requested',
    return_items: pySorted(args.item_ids),
    return_payment_method_id: args.payment_method_id,
  });
  return { value: own, schema: Order };
}

/** The retail tools that write. */
export const RETAIL_WRITE_TOOLS = {
  cancel_pending_order: { kind: 'write', params: ['order_id', 'reason'], run: cancelPendingOrder },
  exchange_delivered_order_items: {
    kind: 'write',
    params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
    run: exchangeDeliveredOrderItems,
  },
  modify_pending_order_address: {
    kind: 'write',
    params: ['order_id', ...ADDRESS_FIELDS],
    run: (db, args) => {
      const order = getOrder(db, args.order_id);
      if (!(order.status as string).includes('pending'))
        throw new ToolError('Non-pending order cannot be modified');
      const own = getOrder(db, args.order_id, true);
      own.address = address(args);
      return { value: own, schema: Order };
    },
  },
  modify_pending_order_items: {
    kind: 'write',
    params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
    run: modifyPendingOrderItems,
  },
  modify_pending_order_payment: {
    kind: 'write',
    params: ['order_id', 'payment_method_id'],
    run: modifyPendingOrderPayment,
  },
  modify_user_address: {
    kind: 'write',
    params: ['user_id', ...ADDRESS_FIELDS],
    run: (db, args) => {
      getUser(db, args.user_id);
      const user = getUser(db, args.user_id, true);
      user.address = address(args);
      return { value: user, schema: User };
    },
  },
  return_delivered_order_items: {
    kind: 'write',
    params: ['order_id', 'item_ids', 'payment_method_id'],
    run: returnDeliveredOrderItems,
  },
} satisfies Record<string, Tau2Tool>;

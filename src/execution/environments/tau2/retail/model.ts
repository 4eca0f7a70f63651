/**
 * The retail database's data model (tau2's `retail/data_model.py`) as zod schemas: field order,
 * `float` vs `int`, literals and the optional order fields that default to null. Parsing db.json
 * with `RetailDb` gives what tau2's `RetailDB.model_dump()` holds.
 */
import { z } from 'zod';

const text = z.string();
const float = z.number();

export const Variant = z.object({
  item_id: text,
  options: z.record(text, text),
  available: z.boolean(),
  price: float,
});
export const Product = z.object({
  name: text,
  product_id: text,
  variants: z.record(text, Variant),
});
export const UserName = z.object({ first_name: text, last_name: text });
export const UserAddress = z.object({
  address1: text,
  address2: text,
  city: text,
  country: text,
  state: text,
  zip: text,
});

export const CreditCard = z.object({
  source: z.literal('credit_card'),
  id: text,
  brand: text,
  last_four: text,
});
export const Paypal = z.object({ source: z.literal('paypal'), id: text });
export const GiftCard = z.object({ source: z.literal('gift_card'), id: text, balance: float });
export const PaymentMethod = z.discriminatedUnion('source', [CreditCard, GiftCard, Paypal]);

export const User = z.object({
  user_id: text,
  name: UserName,
  address: UserAddress,
  email: text,
  payment_methods: z.record(text, PaymentMethod),
  orders: z.array(text),
});

export const OrderFulfillment = z.object({ tracking_id: z.array(text), item_ids: z.array(text) });
export const OrderItem = z.object({
  name: text,
  product_id: text,
  item_id: text,
  price: float,
  options: z.record(text, text),
});
export const OrderPayment = z.object({
  transaction_type: z.enum(['payment', 'refund']),
  amount: float,
  payment_method_id: text,
});
export const ORDER_STATUSES = [
  'processed',
  'pending',
  'pending (item modified)',
  'delivered',
  'cancelled',
  'exchange requested',
  'return requested',
] as const;

export const Order = z.object({
  order_id: text,
  user_id: text,
  address: UserAddress,
  items: z.array(OrderItem),
  status: z.enum(ORDER_STATUSES),
  fulfillments: z.array(OrderFulfillment),
  payment_history: z.array(OrderPayment),
  cancel_reason: z.enum(['no longer needed', 'ordered by mistake']).nullable().default(null),
  exchange_items: z.array(text).nullable().default(null),
  exchange_new_items: z.array(text).nullable().default(null),
  exchange_payment_method_id: text.nullable().default(null),
  exchange_price_difference: float.nullable().default(null),
  return_items: z.array(text).nullable().default(null),
  return_payment_method_id: text.nullable().default(null),
});

/** The whole retail database (db.json). */
export const RetailDb = z.object({
  products: z.record(text, Product),
  users: z.record(text, User),
  orders: z.record(text, Order),
});

/** The parts of a zod schema's definition that the Python-compatible walkers read (serialisation, validation). */
import type { z } from 'zod';

/** Any zod schema. */
export type Schema = z.core.$ZodType;

/** A schema's definition: its kind and, per kind, its inner schemas or values. */
export interface SchemaDef {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  innerType?: Schema;
  options?: Schema[];
  items?: Schema[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  defaultValue?: unknown;
}

/** The definition of a schema. */
export const defOf = (schema: Schema): SchemaDef => schema._zod.def as unknown as SchemaDef;

/** True for a number schema that only takes integers (`z.int()`): pydantic's `int`, not `float`. */
export const isIntSchema = (schema: Schema): boolean =>
  Boolean((schema as unknown as { isInt?: boolean }).isInt);

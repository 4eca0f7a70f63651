/**
 * ToolSandbox's `unit_conversion` is pint's `Quantity(amount, from).to(to)`. This port reads pint's
 * default registry as exported to `data/toolsandbox/units.json` (by export_units.py)
 * and resolves a unit as pint does: an exact name, symbol or alias, else prefix + unit + plural
 * suffix in pint's search order. Expressions are limited to `a`, `a/b` and `a per b`; offset units
 * (degC, degF, ...) convert through kelvin with their scale and offset, as pint does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolException } from './toolbox.js';

interface UnitEntry {
  name: string;
  dims: Record<string, number>;
  base: boolean;
  scale?: number;
  reference?: [string, number][];
  offset?: number;
}
interface Registry {
  prefixes: Record<string, { name: string; factor: number }>;
  suffixes: string[];
  units: Record<string, UnitEntry>;
}

let registry: Registry | undefined;

function load(): Registry {
  const file = fileURLToPath(new URL('../../../../data/toolsandbox/units.json', import.meta.url));
  registry ??= JSON.parse(readFileSync(file, 'utf8')) as Registry;
  return registry;
}

const UNDEFINED = 'pint.errors.UndefinedUnitError';

/** A parsed unit expression: canonical names with exponents (pint's UnitsContainer). */
interface Resolved {
  units: [string, number][];
  dims: Record<string, number>;
  offset?: UnitEntry;
}

const prefixed = new Map<string, UnitEntry>();

function definitionOf(name: string): UnitEntry {
  const entry = load().units[name] ?? prefixed.get(name);
  if (!entry) throw new Error(`units.json: no unit '${name}'`);
  return entry;
}

function resolveName(text: string): UnitEntry {
  const { prefixes, suffixes, units } = load();
  const direct = units[text];
  if (direct) return direct;
  for (const suffix of suffixes)
    for (const [prefix, definition] of Object.entries(prefixes)) {
      if (!text.startsWith(prefix) || !text.endsWith(suffix)) continue;
      let name = text.slice(prefix.length);
      if (suffix !== '') {
        name = name.slice(0, -suffix.length);
        if ([...name].length === 1) continue;
      }
      const unit = units[name];
      if (!unit) continue;
      if (definition.name === '') return unit;
      if (unit.offset !== undefined)
        throw new ToolException(
          'pint.errors.OffsetUnitCalculusError',
          'Prefixing a unit requires multiplying the unit.',
        );
      const entry: UnitEntry = {
        name: definition.name + unit.name,
        dims: unit.dims,
        base: false,
        scale: definition.factor,
        reference: [[unit.name, 1]],
      };
      prefixed.set(entry.name, entry);
      return entry;
    }
  throw new ToolException(UNDEFINED, `'${text}' is not defined in the unit registry`);
}

function addDims(into: Record<string, number>, dims: Record<string, number>, sign: number): void {
  for (const [dim, exp] of Object.entries(dims)) {
    into[dim] = (into[dim] ?? 0) + sign * exp;
    if (into[dim] === 0) delete into[dim];
  }
}

/** A unit expression: `a`, `a/b` or `a per b` (spaces around the names ignored). */
export function resolveUnit(text: string): Resolved {
  const parts = text.split(/\s*\/\s*|\s+per\s+/u).map((p) => p.trim());
  const names = parts.length === 2 && parts[0] !== '' && parts[1] !== '' ? parts : [text.trim()];
  const resolved: Resolved = { units: [], dims: {} };
  names.forEach((name, i) => {
    const entry = resolveName(name);
    const sign = i === 0 ? 1 : -1;
    const same = resolved.units.find(([n]) => n === entry.name);
    if (same) same[1] += sign;
    else resolved.units.push([entry.name, sign]);
    addDims(resolved.dims, entry.dims, sign);
    if (entry.offset !== undefined) resolved.offset = entry;
  });
  resolved.units = resolved.units.filter(([, exp]) => exp !== 0);
  return resolved;
}

/** pint's `_get_root_units` factor: scales collected as a fraction, equal scales cancelled. */
function rootFactor(units: [string, number][]): number {
  const numerator = new Map<number, number>();
  const denominator = new Map<number, number>();
  const walk = (reference: [string, number][], exp: number) => {
    for (const [name, power] of reference) {
      const exp2 = exp * power;
      const entry = definitionOf(name);
      if (entry.base) continue;
      if (exp2 < 0) denominator.set(entry.scale!, (denominator.get(entry.scale!) ?? 0) - exp2);
      else numerator.set(entry.scale!, (numerator.get(entry.scale!) ?? 0) + exp2);
      walk(entry.reference ?? [], exp2);
    }
  };
  walk(units, 1);
  for (const [scale, exp] of [...numerator]) {
    const down = denominator.get(scale);
    if (down === undefined) continue;
    if (exp >= down) {
      numerator.set(scale, exp - down);
      denominator.delete(scale);
    } else {
      denominator.set(scale, down - exp);
      numerator.delete(scale);
    }
  }
  let factor = 1;
  for (const [scale, exp] of numerator) if (exp !== 0) factor *= scale ** exp;
  for (const [scale, exp] of denominator) if (exp !== 0) factor *= scale ** -exp;
  return factor;
}

function namesText(units: [string, number][]): string {
  const part = ([name, exp]: [string, number]) =>
    Math.abs(exp) === 1 ? name : `${name} ** ${Math.abs(exp)}`;
  const up = units.filter(([, e]) => e > 0).map(part);
  const down = units.filter(([, e]) => e < 0).map(part);
  const head = up.length > 0 ? up.join(' * ') : '1';
  return down.length > 0 ? `${head} / ${down.join(' / ')}` : head;
}

function dimsText(dims: Record<string, number>): string {
  const part = ([dim, exp]: [string, number]) =>
    Math.abs(exp) === 1 ? dim : `${dim} ** ${Math.abs(exp)}`;
  const entries = Object.entries(dims);
  const up = entries.filter(([, e]) => e > 0).map(part);
  const down = entries.filter(([, e]) => e < 0).map(part);
  if (up.length === 0 && down.length === 0) return 'dimensionless';
  const head = up.length > 0 ? up.join(' * ') : '1';
  return down.length > 0 ? `${head} / ${down.join(' / ')}` : head;
}

function sameDims(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? 0) === (b[k] ?? 0));
}

/** `pint.Quantity(amount, from).to(to).magnitude`; 'same' when pint hands the amount back as is. */
export function convertUnits(amount: number, from: string, to: string): number | 'same' {
  const source = resolveUnit(from);
  const target = resolveUnit(to);
  if (!sameDims(source.dims, target.dims))
    throw new ToolException(
      'pint.errors.DimensionalityError',
      `Cannot convert from '${namesText(source.units)}' (${dimsText(source.dims)}) ` +
        `to '${namesText(target.units)}' (${dimsText(target.dims)})`,
    );
  if (namesText(source.units) === namesText(target.units)) return 'same';
  let value = amount;
  // an offset unit converts to its reference (kelvin) first, and from it last
  const swap = (units: [string, number][], offset?: UnitEntry): [string, number][] =>
    offset ? units.map(([n, e]) => (n === offset.name ? offset.reference![0]! : [n, e])) : units;
  if (source.offset) value = value * source.offset.scale! + source.offset.offset!;
  const quotient = [...swap(source.units, source.offset)];
  for (const [name, exp] of swap(target.units, target.offset)) {
    const same = quotient.findIndex(([n]) => n === name);
    if (same >= 0) quotient[same] = [name, quotient[same]![1] - exp];
    else quotient.push([name, -exp]);
  }
  value = value * rootFactor(quotient.filter(([, exp]) => exp !== 0));
  if (target.offset) value = (value - target.offset.offset!) / target.offset.scale!;
  return value;
}

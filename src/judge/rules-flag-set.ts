/**
 * `FlagSet`: the E1–E6 flags of a rules verdict under construction, with the reason of each and
 * which are only trivial.
 */
import { NO_ERRORS, type ErrorFlags } from './verdict.js';

/**
 * Flags under construction: which E codes fire, why (for the verdict's reasoning), and whether
 * every one is trivial.
 */
export class FlagSet {
  readonly errors: ErrorFlags = [...NO_ERRORS];
  readonly reasons: string[] = [];
  private serious = false;

  /** Raises an E code; `trivial` marks a flag that alone would not break the answer (an unknown optional argument). */
  raise(code: 1 | 2 | 3 | 4 | 5 | 6, why: string, trivial = false): void {
    this.errors[code - 1] = true;
    this.reasons.push(`E${code}: ${why}`);
    if (!trivial) this.serious = true;
  }

  /** Whether any flag fired. */
  any(): boolean {
    return this.errors.some(Boolean);
  }

  /** Whether flags fired and every one of them is trivial. */
  onlyTrivial(): boolean {
    return this.any() && !this.serious;
  }
}

/**
 * Heap tuning for long runs. V8 lets the old generation grow to about four times what survived
 * the last full collection before collecting again; a run keeps ~25 MB alive but promotes the data
 * of every case in flight, so the heap swung up to ~135 MB between collections and the process
 * peaked at 200–245 MB on the 4,209-case benchmark. A growth factor of 1.5 keeps the peak at
 * ~150 MB for the same CPU (more, smaller full collections; docs/performance.md).
 * `v8.setFlagsFromString` is applied when a command starts: this flag is read at every
 * collection, so it takes effect without restarting Node.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Called by the commands that stream a whole dataset through models (`apb run`). */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

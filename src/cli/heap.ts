/**
 * Heap tuning for long runs. V8 sets the next full collection's trigger from what survived the
 * last one, times a growth factor of its choosing (up to 4). A run keeps ~25 MB alive but promotes
 * the data of every case in flight, so the heap grew to ~110 MB between collections and the
 * process peaked at up to 201–231 MB on the 4,209-case benchmark. A growth factor of 1.5 keeps
 * the peak at 129–157 MB for ~3 % more CPU (more, smaller full collections; docs/performance.md).
 * `v8.setFlagsFromString` is applied when a command starts: this flag is read at every
 * collection, so it takes effect without restarting Node.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Called by the commands that stream a whole dataset or run directory (`apb run`, `apb judge`, `apb report`). */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

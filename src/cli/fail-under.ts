/**
 * `apb run --fail-under METRIC=VALUE`: a CI gate on the finished run's headline numbers. A run
 * below any gate (or one that does not measure the gated metric: a gate never passes by absence)
 * exits 3, so a pipeline can tell "scored too low" from a failed run (1) or bad input (2).
 */
import { UsageError } from '../errors.js';
import type { EndOfRunSummary } from '../report/run-summary.js';

/** The metrics a gate can name, each the headline number of that label (percent, 0–100). */
export const GATE_METRICS = {
  holistic_cr: 'Holistic CR',
  step_wise_cr: 'Step-wise CR',
  tool_extraneous_cr: 'Tool-extraneous CR',
  tool_broken_replace: 'Tool-broken Replace',
  unsolvable_pass: 'Unsolvable pass',
} as const;

/** One gate: the run must score at least `min` on `metric`. */
export interface Gate {
  metric: keyof typeof GATE_METRICS;
  min: number;
}

/** Parses one `METRIC=VALUE` flag value (commander's collector passes them one at a time). */
export function parseGate(text: string, previous: Gate[] = []): Gate[] {
  const match = /^\s*([a-z_]+)\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*$/.exec(text);
  const names = Object.keys(GATE_METRICS).join(', ');
  if (!match)
    throw new UsageError(`--fail-under ${text}: expected METRIC=VALUE (metrics: ${names})`);
  const metric = match[1] as Gate['metric'];
  if (!(metric in GATE_METRICS))
    throw new UsageError(`--fail-under ${text}: unknown metric "${metric}" (metrics: ${names})`);
  const min = Number(match[2]);
  if (min > 100) throw new UsageError(`--fail-under ${text}: a percentage is at most 100`);
  return [...previous, { metric, min }];
}

/** The gates a finished run fails, one line each (empty when it passes every gate). */
export function failedGates(summary: EndOfRunSummary, gates: readonly Gate[]): string[] {
  const failures: string[] = [];
  for (const entry of summary.entries)
    for (const gate of gates) {
      const label = GATE_METRICS[gate.metric];
      const number = entry.headline.find((cell) => cell.label === label);
      const who = `${entry.model} (judge ${entry.judge})`;
      if (!number || number.value === null || number.n === 0)
        failures.push(`${who}: ${gate.metric} is not measured by this run (gate ${gate.min})`);
      else if (number.value < gate.min)
        failures.push(
          `${who}: ${gate.metric} ${number.value.toFixed(1)} is below ${gate.min} (n=${number.n})`,
        );
    }
  return failures;
}

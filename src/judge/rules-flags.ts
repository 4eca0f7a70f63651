/**
 * The E1–E6 rules of the rules judge, split by regime: each reads the findings, raises flags with
 * their reasons and returns what the grade is read from. The table of rules: docs/rules-judge.md.
 */
import type { Findings } from './checks/findings.js';
import type { FlagSet } from './rules-flag-set.js';
import type { HolisticSeverity, StepWiseSeverity } from './rules-grades.js';

const list = (names: Iterable<string>) => [...new Set(names)].join(', ');

/**
 * Flags every split shares (unlisted tools E6, distractors E5, schema and value problems E5/E6);
 * returns the answer steps with a real error and those with only a trivial one.
 */
function callFlags(
  findings: Findings,
  flags: FlagSet,
): { flawed: Set<number>; trivial: Set<number> } {
  const flawed = new Set<number>();
  const trivial = new Set<number>();
  const hallucinated = findings.hallucinatedTools.names;
  if (hallucinated.length > 0) flags.raise(6, `calls unlisted tool(s) ${hallucinated.join(', ')}`);
  if (findings.distractorUse && findings.distractorUse.count > 0)
    flags.raise(5, `calls distractor tool(s) ${findings.distractorUse.names.join(', ')}`);
  const offList = new Set([...hallucinated, ...(findings.distractorUse?.names ?? [])]);
  for (const extra of findings.planAlignment?.extra ?? [])
    if (offList.has(extra.tool)) flawed.add(extra.step);
  const schema = findings.arguments.problems;
  if (schema.length > 0) {
    const onlyUnknown = schema.every((problem) => problem.kind === 'unknown-argument');
    flags.raise(
      5,
      `argument problem(s): ${schema.map((problem) => `${problem.tool}.${problem.argument || '(arguments)'} ${problem.kind}`).join(', ')}`,
      onlyUnknown,
    );
    for (const problem of schema)
      (problem.kind === 'unknown-argument' ? trivial : flawed).add(problem.step);
  }
  const values = findings.argumentValues?.problems ?? [];
  const invented = values.filter((problem) => problem.kind === 'invented');
  const wrong = values.filter((problem) => problem.kind !== 'invented');
  if (invented.length > 0)
    flags.raise(
      6,
      `invented value(s): ${invented.map((problem) => `${problem.tool}.${problem.argument} ${problem.detail}`).join('; ')}`,
    );
  if (wrong.length > 0)
    flags.raise(
      5,
      `wrong value(s): ${wrong.map((problem) => `${problem.tool}.${problem.argument} (${problem.kind}) ${problem.detail}`).join('; ')}`,
    );
  for (const problem of values) flawed.add(problem.step);
  return { flawed, trivial };
}

/**
 * Holistic rules (C.1.2): incompleteness, no shared tool, unrequested state changes, unsound order,
 * data before it exists.
 */
export function holisticFlags(findings: Findings, flags: FlagSet): HolisticSeverity {
  const { flawed, trivial } = callFlags(findings, flags);
  const refused = findings.refusal.refused;
  if (refused) flags.raise(2, 'refuses a solvable task');
  const alignment = findings.planAlignment;
  if (!alignment)
    return {
      refused,
      flaws: flawed.size,
      trivial: [...trivial].filter((step) => !flawed.has(step)).length,
      good: 1,
      served: 1,
      referenceCalls: null,
    };
  const uncovered = alignment.missing.filter((missing) => missing.coveredBy === null);
  if (uncovered.length > 0 && !refused)
    flags.raise(2, `reference call(s) missing: ${list(uncovered.map((missing) => missing.tool))}`);
  const offList = new Set([
    ...findings.hallucinatedTools.names,
    ...(findings.distractorUse?.names ?? []),
  ]);
  const covered = alignment.missing.length - uncovered.length;
  if (alignment.pairs.length === 0 && covered === 0 && alignment.extra.length > 0)
    flags.raise(1, 'shares no tool with the reference');
  const writes = alignment.extra.filter(
    (extra) => extra.effect === 'state-changing' && !offList.has(extra.tool),
  );
  if (writes.length > 0)
    flags.raise(
      3,
      `unrequested state change(s) the reference does not make: ${list(writes.map((extra) => extra.tool))}`,
    );
  for (const extra of writes) flawed.add(extra.step);
  const lostLink = orderFlags(findings, alignment, flags, flawed);
  const pairedFlawed = alignment.pairs.filter((pair) => flawed.has(pair.step)).length;
  return {
    refused,
    // A lost link is its own flaw only when no misplaced call already explains it.
    flaws:
      flawed.size +
      uncovered.length +
      (lostLink &&
      alignment.unsoundOrder.length + alignment.futureData.length + alignment.dataFlow.length === 0
        ? 1
        : 0),
    trivial: [...trivial].filter((step) => !flawed.has(step)).length,
    good: Math.max(0, alignment.referenceCalls - uncovered.length - pairedFlawed),
    served: alignment.referenceCalls - uncovered.length,
    referenceCalls: alignment.referenceCalls,
  };
}

/**
 * The order and data-flow rules of a holistic answer (E4 misplaced calls, a lost reference link and
 * data from the wrong step; E6 data that no earlier step produces or that is not yet available);
 * every step they concern is added to `flawed`. Returns whether a reference link is lost.
 */
function orderFlags(
  findings: Findings,
  alignment: NonNullable<Findings['planAlignment']>,
  flags: FlagSet,
  flawed: Set<number>,
): boolean {
  const misplaced = alignment.unsoundOrder.map(
    (entry) => `${entry.tool} (step ${entry.step}) before step ${entry.before}`,
  );
  if (misplaced.length > 0)
    flags.raise(4, `called before what it depends on: ${misplaced.join(', ')}`);
  for (const entry of alignment.unsoundOrder) flawed.add(entry.step);
  // Both sides cite steps and a reference link is lost: a broken dependency the order check cannot see.
  const order = findings.chainOrder;
  const lostLink = order?.edgeBasis === 'data-flow' && (order.sharedEdgeRecall ?? 1) < 1 - 1e-9;
  if (lostLink) flags.raise(4, 'data-flow links of the reference are missing');
  const unavailable = alignment.dataFlow.filter((entry) => entry.problem === 'unavailable');
  const wrongSource = alignment.dataFlow.filter((entry) => entry.problem !== 'unavailable');
  const described = (entries: typeof unavailable) =>
    entries.map((entry) => `step ${entry.step} ${entry.argument} (${entry.detail})`).join('; ');
  if (unavailable.length > 0)
    flags.raise(6, `uses data no earlier step produces: ${described(unavailable)}`);
  if (wrongSource.length > 0)
    flags.raise(4, `takes data from the wrong step: ${described(wrongSource)}`);
  for (const entry of alignment.dataFlow) flawed.add(entry.step);
  const early = alignment.futureData.map((entry) => `step ${entry.step} cites step ${entry.cites}`);
  if (early.length > 0) flags.raise(6, `uses results not yet available: ${early.join(', ')}`);
  for (const entry of alignment.futureData) flawed.add(entry.step);
  return lostLink;
}

/**
 * Step-wise rules (C.1.1, zero tolerance): every position needs the reference's tool with agreeing
 * values, or a sound reorder.
 */
export function stepWiseFlags(findings: Findings, flags: FlagSet): StepWiseSeverity {
  callFlags(findings, flags);
  const { nextK, refusal } = findings;
  const refused = refusal.refused;
  if (refused) flags.raise(2, 'refuses instead of acting');
  const positions = nextK?.positions ?? [];
  if (nextK && !refused) {
    const offList = new Set([
      ...findings.hallucinatedTools.names,
      ...(findings.distractorUse?.names ?? []),
    ]);
    const valueSteps = new Set(
      (findings.argumentValues?.problems ?? []).map((problem) => problem.step),
    );
    positions.forEach((kind, index) => {
      const at = `step ${index + 1}`;
      const predicted = nextK.predictedTools?.[index] ?? null;
      if (kind === 'value-mismatch' && !valueSteps.has(index + 1))
        flags.raise(5, `${at}: argument values differ from the reference`);
      if (kind === 'missing') flags.raise(2, `${at}: missing`);
      if (kind === 'text-early')
        flags.raise(2, `${at}: concludes without the tool the task still needs`);
      if (kind !== 'mismatch' || (predicted !== null && offList.has(predicted))) return;
      if (nextK.inReference?.[index])
        flags.raise(4, `${at}: ${predicted} is a reference tool used at the wrong point`);
      else if (index === 0) flags.raise(1, `${at}: ${predicted} is not on the reference path`);
      else flags.raise(4, `${at}: ${predicted} does not follow from the steps before it`);
    });
    if (nextK.predicted > nextK.horizon)
      flags.raise(
        3,
        `gives ${nextK.predicted} steps where exactly ${nextK.horizon} were asked for`,
      );
  }
  return {
    errors: flags.errors,
    refused,
    onlyTrivial: flags.onlyTrivial(),
    anyPositionRight: positions.some(
      (kind) => kind === 'match' || kind === 'accepted' || kind === 'value-mismatch',
    ),
  };
}

/**
 * Whether an unsolvable answer passes (C.6: an explicit refusal passes; planning as if the task
 * could be done fails).
 */
export function unsolvableOutcome(findings: Findings): { passes: boolean; why: string } {
  const { refusal } = findings;
  if (!refusal.refused) return { passes: false, why: 'does not refuse an unsolvable task' };
  return {
    passes: true,
    why: `refuses (${refusal.explicit ? 'explicit REJECT' : refusal.prose ? 'reasoned prose refusal' : 'refusal language'})`,
  };
}

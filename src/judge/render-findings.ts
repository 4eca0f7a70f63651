/**
 * Renders the deterministic findings for the judge, as hints; blind mode drops every finding
 * derived from the reference.
 */
import type { ParsedAnswer } from '../settings/attempt.js';
import type { Findings } from './checks/findings.js';

const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : String(value));
const list = (names: string[]) => (names.length === 0 ? 'none' : names.join(', '));

/** Findings computed without the reference: answer format, unknown tools, argument schemas, refusal. */
function referenceFreeLines(findings: Findings): string[] {
  const lines = [
    findings.schema.valid
      ? '- Answer format: matches the requested JSON shape.'
      : `- Answer format: deviates from the requested JSON shape: ${findings.schema.issues.join('; ') || 'no detail'}.`,
    `- Called tools that are not in the tool list: ${list(findings.hallucinatedTools.names)}.`,
  ];
  const { problems, checkedCalls } = findings.arguments;
  lines.push(
    problems.length === 0
      ? `- Argument checks against the tool schemas: ${checkedCalls} call(s) checked, no problem found.`
      : `- Argument checks against the tool schemas (${checkedCalls} call(s) checked): ${problems
          .map(
            (problem) =>
              `call ${problem.step} ${problem.tool}: ${problem.kind} "${problem.argument}"${problem.detail ? ` (${problem.detail})` : ''}`,
          )
          .join('; ')}.`,
  );
  const { refusal } = findings;
  lines.push(
    refusal.refused
      ? `- Refusal detected (${refusal.explicit ? 'explicit REJECT' : 'refusal wording'})${refusal.evidence ? `: "${refusal.evidence}"` : ''}.`
      : '- No refusal detected.',
  );
  return lines;
}

/** Findings that compare the answer with the reference or its labels. */
function referenceLines(findings: Findings): string[] {
  const lines: string[] = [];
  if (findings.distractorUse)
    lines.push(
      `- Distractor tools called: ${findings.distractorUse.count === 0 ? 'none' : `${list(findings.distractorUse.names)} (${findings.distractorUse.count} call(s))`}.`,
    );
  if (findings.brokenTool)
    lines.push(
      `- First action on the broken tool, by name matching: ${findings.brokenTool.behavior}${findings.brokenTool.calledTool ? ` (calls ${findings.brokenTool.calledTool})` : ''}.`,
    );
  if (findings.toolSet) {
    const { precision, recall, f1, missing, extra } = findings.toolSet;
    lines.push(
      `- Tool overlap with the reference: precision ${ratio(precision)}, recall ${ratio(recall)}, F1 ${ratio(f1)}; reference tools not used: ${list(missing)}; tools not in the reference: ${list(extra)}.`,
    );
  }
  if (findings.chainOrder) {
    const { lcs, lcsRatio, edgeF1 } = findings.chainOrder;
    lines.push(
      `- Order agreement with the reference: longest common subsequence ${lcs} (ratio ${ratio(lcsRatio)})${edgeF1 === null ? '' : `, dependency-edge F1 ${ratio(edgeF1)}`}.`,
    );
  }
  if (findings.nextK) {
    const { horizon, predicted, toolMatches } = findings.nextK;
    lines.push(
      `- Next steps: ${predicted} predicted for ${horizon} asked; tool equal to the reference's at each position: ${toolMatches.map((match) => (match ? 'yes' : 'no')).join(', ') || 'n/a'}.`,
    );
  }
  if (findings.planCost) {
    const { predictedSteps, referenceSteps, predictedCost, referenceCost } = findings.planCost;
    const cost =
      predictedCost === null ? '' : `; cost ${predictedCost} against ${referenceCost ?? 'unknown'}`;
    lines.push(
      `- Length: ${predictedSteps} step(s) against ${referenceSteps} in the reference${cost}.`,
    );
  }
  return lines;
}

/** The AUTOMATIC CHECKS block text. */
export function findingsText(
  findings: Findings,
  parsed: ParsedAnswer,
  options: { blind: boolean },
): string {
  const head =
    parsed.kind === 'parse_error'
      ? [
          `- The answer could not be read as the requested JSON (${parsed.message}). This does not decide the verdict: read the raw answer yourself.`,
        ]
      : [];
  const lines = [
    ...head,
    ...referenceFreeLines(findings),
    ...(options.blind ? [] : referenceLines(findings)),
  ];
  return lines.join('\n');
}

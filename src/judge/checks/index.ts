/**
 * The CHECKS registry (D1–D10 of peers.md §B10, D11–D12 of docs/rules-judge.md) and `runChecks`,
 * which fills a `Findings` for one answer.
 */
import type { Case } from '../../dataset/case.js';
import type { ParsedAnswer } from '../../settings/attempt.js';
import { argumentValuesCheck } from './argument-values.js';
import { argumentsCheck } from './arguments.js';
import { brokenToolCheck } from './broken-tool.js';
import { chainOrderCheck } from './chain-order.js';
import { NO_TEXT, type AnswerText, type Check } from './check.js';
import { distractorUseCheck } from './distractor-use.js';
import type { Findings } from './findings.js';
import { hallucinatedToolsCheck } from './hallucinated-tools.js';
import { nextKCheck } from './next-k.js';
import { planAlignmentCheck } from './plan-alignment.js';
import { planCostCheck } from './plan-cost.js';
import { refusalCheck } from './refusal.js';
import { schemaCheck } from './schema.js';
import { toolSetCheck } from './tool-set.js';

/** Every deterministic check, keyed by the `Findings` field it fills. */
export const CHECKS = {
  schema: schemaCheck,
  hallucinatedTools: hallucinatedToolsCheck,
  distractorUse: distractorUseCheck,
  brokenTool: brokenToolCheck,
  refusal: refusalCheck,
  toolSet: toolSetCheck,
  chainOrder: chainOrderCheck,
  arguments: argumentsCheck,
  nextK: nextKCheck,
  planCost: planCostCheck,
  planAlignment: planAlignmentCheck,
  argumentValues: argumentValuesCheck,
} satisfies { [Id in keyof Findings]-?: Check<Findings[Id]> };

/** A check id: the `Findings` field it fills. */
export type CheckId = keyof typeof CHECKS;

/** Runs every check on one parsed answer. */
export function runChecks(
  caseItem: Case,
  parsed: ParsedAnswer,
  answer: AnswerText = NO_TEXT,
): Findings {
  return {
    schema: CHECKS.schema.run(caseItem, parsed),
    hallucinatedTools: CHECKS.hallucinatedTools.run(caseItem, parsed),
    distractorUse: CHECKS.distractorUse.run(caseItem, parsed),
    brokenTool: CHECKS.brokenTool.run(caseItem, parsed),
    refusal: CHECKS.refusal.run(caseItem, parsed, answer),
    toolSet: CHECKS.toolSet.run(caseItem, parsed),
    chainOrder: CHECKS.chainOrder.run(caseItem, parsed),
    arguments: CHECKS.arguments.run(caseItem, parsed),
    nextK: CHECKS.nextK.run(caseItem, parsed),
    planCost: CHECKS.planCost.run(caseItem, parsed),
    planAlignment: CHECKS.planAlignment.run(caseItem, parsed),
    argumentValues: CHECKS.argumentValues.run(caseItem, parsed),
  };
}

export type { AnswerText, Check } from './check.js';
export type { ArgumentProblem, Findings, ValueProblem } from './findings.js';

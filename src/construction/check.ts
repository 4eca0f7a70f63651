/**
 * `check` (paper B.2): the rule check (i11's `ruleCheck`, the one `apb data validate` runs) over
 * each source record, plus the record-level requirements of Fig. 8; with a model, the
 * reasonability check (Fig. 9) and the trajectory audit (Fig. 10). Kept records go to the review
 * queue for human verification; rejected ones are written with their reasons.
 */
import type { FileResolver } from '../dataset/files.js';
import { parseRecordLine } from '../dataset/parse-record.js';
import { ruleCheck, RULE_CHECK_VERSION } from '../dataset/rule-check.js';
import { caseRecord, sourceFields, prefixEntry, type MetaLine } from './case-record.js';
import type { ConstructionModel } from './model.js';
import {
  auditPrompt,
  CHECK_PROMPT_VERSIONS,
  readAudit,
  readReasonability,
  reasonabilityPrompt,
  type StageVerdict,
} from './prompts/check.js';
import { pendingReview, type ReviewLine } from './review.js';
import { stepsOf, type SourceRecord } from './source-record.js';
import { mapInOrder, type StepContext } from './step.js';

/** A record the check dropped, the stage that dropped it, and why. */
export interface Rejection {
  id: string;
  stage: 'rule' | 'reasonability' | 'trajectory-audit';
  reasons: string[];
  record: SourceRecord;
}

/** What `check` produces. */
export interface CheckResult {
  kept: SourceRecord[];
  meta: MetaLine[];
  rejected: Rejection[];
  review: ReviewLine[];
}

/** A probe field (the record laid out as a step-wise case) renamed to the source record's own field. */
export function sourceField(field: string): string {
  return field
    .replace(/^trajectory_prefix_json\[/, 'messages[')
    .replace(/\.tool_calls\[(\d+)\]\.function\.name/, '.tool_calls[$1].name')
    .replace(/\.tool_calls\[(\d+)\]\.function\.arguments/, '.tool_calls[$1].arguments')
    .replace(/^tools_json/, 'tools');
}

/**
 * The rule-check findings that reject a source record, calibrated on Fig. 8's stage 1: a missing
 * query or tool list, and a call to a tool that is not listed (a hallucinated tool). The dataset
 * rule check's other errors (an argument that breaks its tool's schema) are review findings here:
 * Fig. 8 does not drop a record for them, and a reviewer can fix them.
 */
const FIG8_ERRORS = /not a listed tool|^is empty$|lists no tool/;

/**
 * Tool-call ids used twice: a return could not say which call it answers (the first would silently
 * take both), so such a record is refused, naming both places.
 */
function duplicateCallIds(record: SourceRecord): string[] {
  const first = new Map<string, string>();
  const errors: string[] = [];
  record.messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    message.tool_calls.forEach((call, position) => {
      const here = `messages[${index}].tool_calls[${position}]`;
      const earlier = first.get(call.id);
      if (earlier === undefined) first.set(call.id, here);
      else errors.push(`${here}.id: duplicate tool-call id "${call.id}" (first at ${earlier})`);
    });
  });
  return errors;
}

/**
 * The rule check of a source record: the record is laid out as a step-wise case whose prefix is
 * the whole trajectory (so every executed call is checked as a prefix call), parsed by the dataset
 * reader and given to `ruleCheck` (only `FIG8_ERRORS` reject; other findings are warnings); Fig. 8's
 * required parts come on top.
 */
export function ruleCheckSource(
  record: SourceRecord,
  resolver: FileResolver,
  origin: { file: string; line: number },
): { errors: string[]; warnings: string[] } {
  const steps = stepsOf(record);
  const probe = caseRecord({
    id: record.id,
    split: 'step_wise_planning',
    ...sourceFields(record),
    horizon: 1,
    prefix: record.messages.map(prefixEntry),
    groundTruthSteps: [{ role: 'assistant', content: '(end of the trajectory)' }],
    baseCaseId: null,
    steps: steps.length,
  });
  const errors: string[] = [];
  const warnings: string[] = [];
  const { jsonDepth } = resolver.limits;
  const at = { ...origin, fileSplit: null };
  const parsed = parseRecordLine(JSON.stringify(probe), at, resolver, {
    validate: true,
    jsonDepth,
  });
  if (!parsed.ok)
    errors.push(...parsed.issues.map((issue) => `${sourceField(issue.field)}: ${issue.message}`));
  else
    for (const issue of ruleCheck(parsed.case, jsonDepth))
      (issue.severity === 'error' && FIG8_ERRORS.test(issue.message) ? errors : warnings).push(
        `${sourceField(issue.field)}: ${issue.message}`,
      );
  if (steps.length === 0) errors.push('messages: the trajectory makes no tool call');
  errors.push(...duplicateCallIds(record));
  const callIds = new Set(steps.flatMap((step) => step.calls.map((call) => call.id)));
  if (record.tool_returns !== 'absent') {
    for (const step of steps)
      step.calls.forEach(
        (call, index) =>
          step.returns[index] === null &&
          warnings.push(
            `messages[${step.messageIndex}].tool_calls[${index}]: call ${call.id} (${call.name}) has no tool return`,
          ),
      );
  }
  record.messages.forEach((message, index) => {
    if (message.role === 'tool' && !callIds.has(message.tool_call_id))
      warnings.push(`messages[${index}]: a tool return answers no call (${message.tool_call_id})`);
  });
  return { errors, warnings };
}

async function stage(
  model: ConstructionModel,
  prompt: ReturnType<typeof auditPrompt>,
  read: (value: Record<string, unknown>) => StageVerdict,
): Promise<StageVerdict> {
  const reply = await model.ask(prompt);
  return reply.ok ? read(reply.value) : { kind: 'unreadable', reason: reply.reason };
}

type Checked =
  | { kind: 'kept'; record: SourceRecord; meta: MetaLine; review: ReviewLine }
  | { kind: 'rejected'; rejection: Rejection };

async function checkOne(
  record: SourceRecord,
  line: number,
  resolver: FileResolver,
  file: string,
  context: StepContext,
): Promise<Checked> {
  const rules = ruleCheckSource(record, resolver, { file, line });
  if (rules.errors.length > 0)
    return {
      kind: 'rejected',
      rejection: { id: record.id, stage: 'rule', reasons: rules.errors, record },
    };
  const findings = [...rules.warnings];
  const generated: Record<string, unknown> = {
    rule_check: RULE_CHECK_VERSION,
    rule_warnings: rules.warnings.length,
  };
  const model = context.model;
  if (model) {
    const stages = [
      {
        name: 'reasonability' as const,
        prompt: reasonabilityPrompt(record),
        read: readReasonability,
      },
      { name: 'trajectory-audit' as const, prompt: auditPrompt(record), read: readAudit },
    ];
    for (const { name, prompt, read } of stages) {
      const verdict = await stage(model, prompt, read);
      generated[name] = verdict.kind;
      if (verdict.kind === 'failed')
        return {
          kind: 'rejected',
          rejection: { id: record.id, stage: name, reasons: verdict.reasons, record },
        };
      if (verdict.kind === 'unreadable')
        findings.push(`${name} check could not be read (${verdict.reason}): verify by hand`);
    }
  }
  const meta: MetaLine = {
    id: record.id,
    step: 'check',
    seed: context.seed,
    parent_id: record.id,
    generated,
    model: model?.id ?? null,
    prompt_version: model
      ? `${CHECK_PROMPT_VERSIONS.reasonability}+${CHECK_PROMPT_VERSIONS.audit}`
      : null,
  };
  return { kind: 'kept', record, meta, review: pendingReview(record, findings) };
}

/** Checks every record; `lines` gives each record's line in its file (for messages). */
export async function checkSources(
  records: readonly SourceRecord[],
  options: { resolver: FileResolver; file: string; lines?: readonly number[] },
  context: StepContext,
): Promise<CheckResult> {
  const checked = await mapInOrder(
    records.map((record, index) => ({ record, line: options.lines?.[index] ?? index + 1 })),
    context,
    ({ record, line }) => checkOne(record, line, options.resolver, options.file, context),
  );
  const result: CheckResult = { kept: [], meta: [], rejected: [], review: [] };
  for (const item of checked) {
    if (item.kind === 'rejected') result.rejected.push(item.rejection);
    else {
      result.kept.push(item.record);
      result.meta.push(item.meta);
      result.review.push(item.review);
    }
  }
  return result;
}

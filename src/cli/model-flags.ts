/**
 * The model options a user can reach on the command line, one set per role: `--temperature`,
 * `--max-tokens`, `--seed`, `--reasoning-effort`, `--thinking-budget`, and the same with a role's
 * prefix (`--user-…`, `--critic-…`, `--judge-…`), read back as the role's sampling parameters.
 */
import type { Command } from 'commander';
import { REASONING_EFFORTS, type SamplingParams } from '../providers/provider.js';
import { choice, nonNegativeInt, positiveInt, temperature } from './options.js';

/** The options of one role, by commander key suffix. */
const OPTIONS = ['temperature', 'maxTokens', 'seed', 'reasoningEffort', 'thinkingBudget'] as const;
type OptionName = (typeof OPTIONS)[number];

const FLAG: Record<OptionName, string> = {
  temperature: 'temperature <t>',
  maxTokens: 'max-tokens <n>',
  seed: 'seed <n>',
  reasoningEffort: 'reasoning-effort <effort>',
  thinkingBudget: 'thinking-budget <n>',
};

/** Registers the role's options not already declared (`skip`), e.g. `addModelFlags(cmd, 'user-', 'the user simulator')`. */
export function addModelFlags(
  command: Command,
  prefix: '' | 'user-' | 'critic-' | 'judge-',
  who: string,
  skip: readonly OptionName[] = [],
): Command {
  const help: Record<OptionName, [string, (value: string) => unknown]> = {
    temperature: [`sampling temperature of ${who}`, temperature],
    maxTokens: [`output token limit of ${who}`, positiveInt],
    seed: [`sampling seed of ${who}, where the endpoint takes one`, nonNegativeInt],
    reasoningEffort: [
      `reasoning effort of ${who}: ${REASONING_EFFORTS.join(', ')} (mapped to each vendor's option)`,
      choice(REASONING_EFFORTS),
    ],
    thinkingBudget: [
      `thinking-token budget of ${who}; 0 turns thinking off where the model allows it`,
      nonNegativeInt,
    ],
  };
  for (const name of OPTIONS) {
    if (skip.includes(name)) continue;
    const [text, parse] = help[name];
    command.option(`--${prefix}${FLAG[name]}`, text, parse);
  }
  return command;
}

/** The commander key of a role's option: `user-` + `maxTokens` → `userMaxTokens`. */
function keyOf(prefix: string, name: OptionName): string {
  if (prefix === '') return name;
  const role = prefix.slice(0, -1);
  return `${role}${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** The role's sampling parameters from parsed flags (only what was given). */
export function modelFlagsOf(
  flags: object,
  prefix: '' | 'user-' | 'critic-' | 'judge-',
): SamplingParams {
  const value = (name: OptionName) => (flags as Record<string, unknown>)[keyOf(prefix, name)];
  const sampling: SamplingParams = {};
  if (value('temperature') !== undefined) sampling.temperature = value('temperature') as number;
  if (value('maxTokens') !== undefined) sampling.maxOutputTokens = value('maxTokens') as number;
  if (value('seed') !== undefined) sampling.seed = value('seed') as number;
  if (value('reasoningEffort') !== undefined)
    sampling.reasoningEffort = value('reasoningEffort') as SamplingParams['reasoningEffort'];
  if (value('thinkingBudget') !== undefined)
    sampling.thinkingBudget = value('thinkingBudget') as number;
  return sampling;
}

/** `--judge-max-tokens`, `--judge-seed`, `--judge-reasoning-effort`, `--judge-thinking-budget`, or null. */
export function judgeSamplingOf(options: Record<string, unknown>): Record<string, unknown> | null {
  const fields = {
    maxTokens: options.judgeMaxTokens,
    seed: options.judgeSeed,
    reasoningEffort: options.judgeReasoningEffort,
    thinkingBudget: options.judgeThinkingBudget,
  };
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  return given.length > 0 ? Object.fromEntries(given) : null;
}

/** The provider-neutral prompt: ordered messages of text and image parts, plus its version. */
import { createHash } from 'node:crypto';
import type { CaseFile } from '../dataset/case.js';

export type PromptPart = { type: 'text'; text: string } | { type: 'image'; file: CaseFile };

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  parts: PromptPart[];
}

/** What is sent to a model. It has no provider-specific fields. */
export interface Prompt {
  messages: PromptMessage[];
  /** `setting@hash` of the templates that produced it; recorded in every result line. */
  promptVersion: string;
}

/** Run-level choices that change the planner prompt. */
export interface PromptOptions {
  /** Put the refusal allowance (the unsolvable split's words) into every split's prompt. */
  allowRefusal: boolean;
  /** `paper` (this project's prompts) or `official` (the released runner's payload shape, without its leaks). */
  protocol: 'paper' | 'official';
  /** Characters of a text attachment shown before a visible truncation marker. */
  textFileCharLimit: number;
}

export const DEFAULT_PROMPT_OPTIONS: PromptOptions = {
  allowRefusal: false,
  protocol: 'paper',
  textFileCharLimit: 20_000,
};

/** A short, stable version id from template texts: any wording change gives a new version. */
export function versionOf(name: string, ...templates: string[]): string {
  return `${name}@${createHash('sha256').update(templates.join('\u0000')).digest('hex').slice(0, 10)}`;
}

/** The text of a prompt, images replaced by their captions (for hashing, estimates and display). */
export function promptText(prompt: Prompt): string {
  return prompt.messages
    .map(
      (message) =>
        `${message.role}:\n${message.parts.map((part) => (part.type === 'text' ? part.text : `[image ${part.file.path}]`)).join('\n')}`,
    )
    .join('\n\n');
}

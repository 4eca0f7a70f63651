/** Renderers shared by the settings' prompt builders: tools, attachments and executed trajectories. */
import type { CaseFile, Tool, TrajectoryMessage } from '../dataset/case.js';
import type { PromptPart } from './prompt.js';

/** The tool bank as one JSON object per line: exact names, descriptions, argument schemas, and costs when asked. */
export function renderTools(tools: Tool[], options: { showCost: boolean }): string {
  if (tools.length === 0) return '(no tools are listed)';
  return tools
    .map((tool) => {
      const entry: Record<string, unknown> = { name: tool.name, description: tool.description };
      if (tool.parameters) entry.parameters = tool.parameters;
      if (tool.example) entry.example = tool.example;
      if (options.showCost) entry.cost = tool.cost ?? null;
      return JSON.stringify(entry);
    })
    .join('\n');
}

function caption(file: CaseFile, index: number): string {
  const tag = file.label && file.label !== file.kind ? `, ${file.label.replace(/_/g, ' ')}` : '';
  return `Attachment ${index + 1} (${file.kind}${tag}): ${file.path.split('/').pop()}`;
}

/** Attachments as prompt parts: images as image parts after a caption, text inlined up to a limit with a visible marker. */
export function renderFiles(files: CaseFile[], textFileCharLimit: number): PromptPart[] {
  const parts: PromptPart[] = [];
  files.forEach((file, index) => {
    if (file.kind === 'image') {
      parts.push({ type: 'text', text: caption(file, index) }, { type: 'image', file });
    } else if (file.kind === 'text') {
      const text = file.text ?? '';
      const shown =
        text.length > textFileCharLimit
          ? `${text.slice(0, textFileCharLimit)}\n[… truncated: ${textFileCharLimit} of ${text.length} characters shown]`
          : text;
      parts.push({ type: 'text', text: `${caption(file, index)}\n<<<\n${shown}\n>>>` });
    } else {
      parts.push({
        type: 'text',
        text: `${caption(file, index)} — ${file.mimeType}, ${file.bytes} bytes; its content cannot be shown here.`,
      });
    }
  });
  return parts;
}

function renderCall(name: string, args: unknown): string {
  return `${name}(${typeof args === 'string' ? args : JSON.stringify(args ?? {})})`;
}

/** An executed trajectory as numbered lines: who spoke, what was thought, which tool was called, what came back. */
export function renderTrajectory(messages: TrajectoryMessage[]): string {
  if (messages.length === 0) return '(nothing has been executed yet)';
  return messages
    .map((message, index) => {
      const lines = [`[${index + 1}] ${message.role === 'tool' ? 'tool return' : message.role}`];
      if (message.thought) lines.push(`  thought: ${message.thought}`);
      if (message.text)
        lines.push(`  ${message.role === 'tool' ? 'output' : 'content'}: ${message.text}`);
      if (message.action) lines.push(`  action: ${message.action}`);
      for (const call of message.toolCalls)
        lines.push(`  calls: ${renderCall(call.name, call.arguments)}`);
      return lines.join('\n');
    })
    .join('\n');
}

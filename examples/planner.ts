/**
 * A planner as code, as a TypeScript module: `apb run --model module:examples/planner.ts`.
 *
 * It plans without a model, by keywords: it reads the tools listed in the prompt, keeps those whose
 * name shares a word with the request, and answers in the JSON the prompt asks for (a holistic
 * plan and tool chain, or step-wise predicted steps). It is the planner of `planner.py` and
 * `http-server.ts` too, so the three forms give identical predictions. Replace `plan` with a call
 * to your own agent.
 */

/** One message as apb sends it: text, or parts (text and base64 images). */
interface Message {
  role: string;
  content: string | { type: string; text?: string }[];
}

/** What apb sends for each case (CONTRACT.md, Model specs): never a reference field. */
export interface PlanRequest {
  id: string;
  split: string;
  repeat: number;
  messages: Message[];
  tools: unknown[];
}

/** What the planner answers: the text a model would have written, and what it used. */
export interface PlanAnswer {
  id: string;
  text: string;
  usage: { input_tokens: number; output_tokens: number };
}

const textOf = (message: Message): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Tool names listed one JSON object per line; the other lines are the request. */
function readPrompt(messages: Message[]): { tools: string[]; request: Set<string> } {
  const tools: string[] = [];
  const request: string[] = [];
  for (const message of messages.filter((each) => each.role === 'user')) {
    for (const line of textOf(message).split('\n')) {
      const name = /^\{"name":"([A-Za-z0-9_.-]+)"/.exec(line.trim())?.[1];
      if (name) tools.push(name);
      else request.push(line);
    }
  }
  return { tools, request: new Set(wordsOf(request.join('\n'))) };
}

/** The tools worth calling: those whose name has a word of four letters or more in the request. */
function choose(tools: string[], request: Set<string>): string[] {
  const chosen = tools.filter((tool) =>
    tool
      .toLowerCase()
      .split(/[_.-]/)
      .some((word) => word.length >= 4 && request.has(word)),
  );
  return chosen.slice(0, 3);
}

/** The answer for one case. */
export function planCase(request: PlanRequest): PlanAnswer {
  const { tools, request: words } = readPrompt(request.messages);
  const chosen = choose(tools, words);
  const system = request.messages
    .filter((each) => each.role === 'system')
    .map(textOf)
    .join('\n');
  const answer = system.includes('predicted_steps')
    ? {
        predicted_steps: chosen.map((tool) => ({
          thought: `The request mentions ${tool}.`,
          tool,
          arguments: {},
        })),
      }
    : {
        plan: chosen.map((tool, index) => `${index + 1}. Call ${tool}.`).join('\n'),
        tool_chain: chosen.map((tool) => ({
          name: tool,
          parameter_description: {},
          reason: `The request mentions ${tool}.`,
        })),
      };
  const text = JSON.stringify(answer);
  const input = request.messages.reduce((sum, each) => sum + wordsOf(textOf(each)).length, 0);
  return {
    id: request.id,
    text,
    usage: { input_tokens: input, output_tokens: wordsOf(text).length },
  };
}

export default {
  id: 'keyword-planner',
  version: '1',
  plan: (request: PlanRequest) => planCase(request),
};

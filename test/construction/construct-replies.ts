/**
 * A scripted construction model for the loopback fake server: it reads which construction prompt
 * a request carries (by its system text) and answers with a well-formed reply built from the
 * request's own tools and trajectory, the way a capable model would. Records whose query holds
 * `MARK-AUDIT-FAIL` fail the trajectory audit.
 */
import type { FakeReply, RecordedRequest } from '../fake-server/index.js';

const json = (value: unknown): FakeReply => ({
  text: JSON.stringify(value),
  usage: { inputTokens: 900, outputTokens: 300 },
});

/** The tools listed in a construction prompt (one JSON object per line under "## Tools"). */
function toolsOf(text: string): Array<{ name: string; parameters?: Record<string, unknown> }> {
  const block = text.split('## Tools\n')[1]?.split('\n\n')[0] ?? '';
  return block.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as { name: string; parameters?: Record<string, unknown> }];
    } catch {
      return [];
    }
  });
}

/** The calls of the rendered trajectory (`calls: name({...})`), in order. */
function callsOf(text: string): Array<{ name: string; arguments: unknown }> {
  return [...text.matchAll(/calls: ([A-Za-z_][\w.-]*)\((.*)\)$/gm)].map((match) => ({
    name: match[1]!,
    arguments: JSON.parse(match[2]!) as unknown,
  }));
}

/** The query of the prompt (under "## User query"). */
function queryOf(text: string): string {
  return text.split('## User query\n')[1]?.split('\n\n## ')[0] ?? '';
}

/** B.1: the query enriched, the asked number of follow-up tools, and steps that reuse three of them. */
function augmentReply(user: string): FakeReply {
  const [, tools, steps] = /Write exactly (\d+) new tools and exactly (\d+) new steps/
    .exec(user)!
    .map(Number);
  const names = Array.from({ length: tools! }, (_, index) => `case_followup_${index + 1}`);
  return json({
    query: `${queryOf(user)} Afterwards, file a follow-up note for each part of this request.`,
    new_tools: names.map((name, index) => ({
      name,
      description: `Files follow-up note ${index + 1} on a customer case and returns its number.`,
      parameters: {
        type: 'object',
        properties: { case_ref: { type: 'string' }, note: { type: 'string' } },
        required: ['case_ref'],
      },
    })),
    steps: Array.from({ length: steps! }, (_, index) => ({
      thought: `File follow-up ${index + 1}.`,
      tool: names[index % Math.min(3, names.length)],
      arguments: { case_ref: `CASE-${index + 1}`, note: 'checked' },
      result: JSON.stringify({ note_id: `N-${index + 1}`, status: 'filed' }),
    })),
  });
}

/** Answers one construction request. */
export function constructionReply(request: RecordedRequest): FakeReply {
  const system = request.parsed?.messages.find((message) => message.role === 'system')?.text ?? '';
  const user = request.parsed?.messages.find((message) => message.role === 'user')?.text ?? '';
  const tools = toolsOf(user);
  if (system.includes('make a seed agent task harder')) return augmentReply(user);
  if (system.includes('review a synthesised agent task'))
    return json({ query_realistic: true, tools_valid: true, problems: [] });
  if (system.includes('audit an executed agent trajectory')) {
    return queryOf(user).includes('MARK-AUDIT-FAIL')
      ? json({
          error_list: [0, 0, 0, 1, 0, 0],
          valid: false,
          explanation: 'The order is cancelled before it is looked up.',
        })
      : json({ error_list: [0, 0, 0, 0, 0, 0], valid: true, explanation: 'Sound.' });
  }
  if (system.includes('holistic planning reference')) {
    const calls = callsOf(user);
    return json({
      query: `${queryOf(user)} (All details are given above.)`,
      plan: calls.map((call) => `Call ${call.name} for the next part of the request.`),
      tool_chain: calls.map((call) => ({
        name: call.name,
        parameter_description: call.arguments,
        reason: `Needed for the request (${call.name}).`,
      })),
    });
  }
  if (system.includes('extend the tool bank')) {
    const count = Number(/Write exactly (\d+) new tools/.exec(user)?.[1] ?? 0);
    return json({
      tools: Array.from({ length: count }, (_, index) => ({
        name: `museum_ticket_lookup_${index + 1}`,
        description: `Look up museum ticket prices, variant ${index + 1}.`,
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      })),
    });
  }
  if (system.includes('alternative tool')) {
    const failing = JSON.parse(user.split('## The tool that fails\n')[1]!.trim()) as {
      name: string;
      description: string;
      parameters?: unknown;
    };
    return json({
      name: `${failing.name}_via_partner_api`,
      description: `${failing.description} Served by the partner API.`,
      parameters: failing.parameters ?? { type: 'object', properties: {} },
    });
  }
  if (system.includes('taken out of the tool list')) {
    const removed = /## The removed tool \(no longer listed above\)\n([^:\n]+):/.exec(user)?.[1];
    return json({
      query: `${queryOf(user)} Please have it handled with ${removed ?? '?'} directly.`,
      explanation: `${removed ?? 'The tool'} is not among the listed tools.`,
    });
  }
  if (system.includes('make it offline or restricted')) {
    const chain = user.split('## How the original task is solved\n')[1] ?? '';
    const last = [...chain.matchAll(/^\d+\. ([A-Za-z_][\w.-]*)\(/gm)].at(-1)?.[1];
    return json({
      restricted_tool: last,
      restriction: 'Only handles requests made before 1 January 2020.',
      query: `${queryOf(user)} I am asking today, and it has to be done today.`,
      explanation: `${last} only handles requests made before 2020.`,
    });
  }
  if (system.includes('can no longer be solved')) {
    const missing = system.includes('privately has');
    return json({
      query: missing
        ? `${queryOf(user)} Use the reference code I was given on the phone yesterday.`
        : `${queryOf(user)} It must all be finished before 1 January 2020.`,
      explanation: missing
        ? 'The code was never given and no tool can look it up.'
        : 'The deadline has passed.',
    });
  }
  if (system.includes('cost-aware planning task')) {
    const steps = (user.split('## Solution steps (the reference tool chain)\n')[1] ?? '')
      .split('\n')
      .filter((line) => /^\d+\. /.test(line)).length;
    const base = Object.fromEntries(tools.map((tool) => [tool.name, 3]));
    const windows = [
      [1, 2],
      [2, 3],
      [1, 2, 3],
      [3, 4],
      [2, 3, 4],
    ].filter((window) => window.at(-1)! <= steps);
    return json({
      base_costs: base,
      composites: windows.slice(0, 4).map((window) => ({
        steps: window,
        name: `combined_steps_${window.join('_')}`,
        description: `Does steps ${window.join(', ')} in one call.`,
        cost: 3 * window.length - 2,
      })),
      traps: [
        {
          kind: 'overpriced',
          name: 'premium_lookup_service',
          description: 'Looks things up with priority handling.',
          parameters: { type: 'object', properties: {} },
          cost: 9,
        },
        {
          kind: 'off_target',
          name: 'quick_summary_tool',
          description: 'Summarises an account in one line.',
          parameters: { type: 'object', properties: {} },
          cost: 1,
        },
      ],
    });
  }
  return {
    status: 400,
    message: `the scripted construction model does not know this prompt: ${system.slice(0, 80)}`,
  };
}

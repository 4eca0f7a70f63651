// Scripted conversations played on the port score what ToolSandbox's own execution environment
// and evaluator give them (fixture exported by scripts/toolsandbox/export_replays.py; Apple's
// licence: data/toolsandbox/LICENSE): right tool calls, a wrong one, a minefield hit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import {
  parseReplays,
  playReplay,
  type ReplayLine,
} from '../../src/execution/environments/toolsandbox/replay.js';
import { loadScenarios } from '../../src/execution/environments/toolsandbox/scenarios.js';
import { loadAgentTools } from '../../src/execution/environments/toolsandbox/agent-tools.js';
import { TOOLS, toolsForAgent } from '../../src/execution/environments/toolsandbox/tools.js';
import { recordFields } from '../../src/execution/environments/toolsandbox/record.js';

interface Expected {
  replay: ReplayLine;
  similarity: number;
  milestone_similarity: number;
  minefield_similarity: number;
  milestone_mapping: [number, [number, number]][];
  turn_count: number;
}

const { results } = JSON.parse(
  readFileSync(new URL('../fixtures/toolsandbox/replays.json', import.meta.url), 'utf8'),
) as { results: Expected[] };
const scenarios = new Map(loadScenarios().scenarios.map((s) => [s.name, s]));
const agentTools = loadAgentTools();
// the tools under the names the scenario's agent is offered (scrambled in tool-name variants)
const offeredTools = (scenario: string) => toolsForAgent(TOOLS, agentTools.get(scenario)!.names);

describe('ToolSandbox replays', () => {
  it.each(results.map((r, i) => [`${i}: ${r.replay.scenario}`, r] as const))(
    '%s scores as ToolSandbox does',
    (_name, want) => {
      const { scenario } = want.replay;
      const { result } = playReplay(scenarios.get(scenario)!, want.replay, offeredTools(scenario));
      expect(result.similarity).toBeCloseTo(want.similarity, 6);
      expect(result.milestoneSimilarity).toBeCloseTo(want.milestone_similarity, 6);
      expect(result.minefieldSimilarity).toBeCloseTo(want.minefield_similarity, 6);
      expect(result.turnCount).toBe(want.turn_count);
      expect(result.milestoneMapping.map(([m, [s]]) => [m, s])).toEqual(
        want.milestone_mapping.map(([m, [s]]) => [m, s]),
      );
    },
  );

  it('a minefield hit sets the similarity to 0 even with every milestone met', () => {
    const hit = results.find((r) => r.minefield_similarity > 0)!;
    const { result } = playReplay(scenarios.get(hit.replay.scenario)!, hit.replay, TOOLS);
    expect(result.milestoneSimilarity).toBe(1);
    expect(result.similarity).toBe(0);
    const fields = recordFields(result, 0, 'user_stop');
    expect(fields).toEqual({
      similarity: 0,
      milestone_similarities: [],
      minefield_hit: true,
      turns: hit.turn_count,
      termination: 'user_stop',
    });
  });

  it('writes the call and its answer as ToolSandbox does', () => {
    const { session } = playReplay(scenarios.get('cellular_off')!, results[3]!.replay, TOOLS);
    const log = session.context.getDatabase('sandbox', { allHistory: true });
    const answer = log.find(
      (row) => row.sender === 'execution_environment' && row.recipient === 'agent',
    )!;
    expect(answer.content).toBe('ValueError: cellular already enabled');
    expect(answer.tool_call_exception).toBe('ValueError: cellular already enabled');
    expect(answer.tool_trace).toBeNull();
  });

  it('plays the same line into the same log twice (no clock, no randomness)', () => {
    const line = results[4]!.replay;
    const log = () =>
      JSON.stringify(
        playReplay(scenarios.get(line.scenario)!, line, TOOLS).session.context.getDatabase(
          'sandbox',
          { allHistory: true, keepIndex: true },
        ),
      );
    expect(log()).toBe(log());
  });

  it('names the line and field of a bad replay line', () => {
    expect(() =>
      parseReplays('r.jsonl', '{"scenario": "x", "turns": [{"role": "bot"}]}\n'),
    ).toThrow(InputError);
    try {
      parseReplays('r.jsonl', '\n{"scenario": 3, "turns": []}\n');
    } catch (error) {
      expect(String((error as Error).message)).toMatch(/r\.jsonl:2/);
    }
  });
});

describe('ToolSandbox tool-name scrambling', () => {
  const name = 'add_contact_with_name_and_phone_number_3_distraction_tools_tool_name_scrambled';
  const want = results.find((r) => r.replay.scenario === name)!;

  it('runs a call under the scrambled name as the real tool, and logs both names', () => {
    const scrambled = (want.replay.turns[0] as { tool_calls: { name: string }[] }).tool_calls[0]!;
    expect(scrambled.name).not.toBe('add_contact');
    const { session } = playReplay(scenarios.get(name)!, want.replay, offeredTools(name));
    const log = session.context.getDatabase('sandbox', { allHistory: true });
    const call = log.find(
      (row) => row.sender === 'agent' && row.recipient === 'execution_environment',
    )!;
    expect(call.openai_function_name).toBe(scrambled.name);
    expect(call.content).toContain('call_1_response = add_contact(**call_1_parameters)');
    const answer = log.find(
      (row) => row.sender === 'execution_environment' && row.recipient === 'agent',
    )!;
    expect(answer.tool_call_exception).toBeNull();
    expect(JSON.parse((answer.tool_trace as string[])[0]!).tool_name).toBe('add_contact');
    expect(session.context.getDatabase('contact').at(-1)!.name).toBe('Stephen Sondheim');
  });

  it('does not know the real name in the scrambled variant', () => {
    const line = {
      scenario: name,
      turns: [{ role: 'agent' as const, tool_calls: [{ name: 'add_contact', arguments: {} }] }],
    };
    const { session } = playReplay(scenarios.get(name)!, line, offeredTools(name));
    const answer = session.context
      .getDatabase('sandbox', { allHistory: true })
      .find((row) => row.sender === 'execution_environment')!;
    expect(answer.content).toBe("NameError: name 'add_contact' is not defined");
  });

  it('answers a number without a country code as phonenumbers does', () => {
    const bad = results.at(-1)!;
    const { session } = playReplay(scenarios.get(bad.replay.scenario)!, bad.replay, TOOLS);
    const answer = session.context
      .getDatabase('sandbox', { allHistory: true })
      .find((row) => row.sender === 'execution_environment')!;
    expect(answer.content).toBe(
      'phonenumbers.phonenumberutil.NumberParseException: (0) Missing or invalid default region.',
    );
  });
});

describe('ToolSandbox replays with new ids', () => {
  it('hands out the same ids on a rerun (no uuid4, no clock)', () => {
    const line = results.find(
      (r) => r.replay.scenario === 'add_contact_with_name_and_phone_number',
    )!;
    const play = () =>
      playReplay(scenarios.get(line.replay.scenario)!, line.replay, TOOLS).session.context;
    const [first, second] = [play(), play()];
    const added = first.getDatabase('contact').at(-1)!;
    expect(added.name).toBe('Stephen Sondheim');
    expect(added.person_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const log = (c: typeof first) =>
      JSON.stringify(c.getDatabase('sandbox', { allHistory: true, keepIndex: true }));
    expect(log(second)).toBe(log(first));
    expect(second.getDatabase('contact')).toEqual(first.getDatabase('contact'));
  });
});

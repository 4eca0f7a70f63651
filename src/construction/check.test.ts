import { describe, expect, it } from 'vitest';
import { FileResolver } from '../dataset/files.js';
import { checkSources, ruleCheckSource } from './check.js';
import { importTrajectoryLine } from './import-trajectories.js';
import { executed, shopRecord } from './make-source.fixture.js';
import { applyReview } from './review.js';

const resolver = new FileResolver('/nonexistent-apb-root');
const origin = { file: 'sources.jsonl', line: 3 };

describe('check (B.2 rule check over source records)', () => {
  it('passes an executed trajectory whose calls name listed tools with valid arguments', () => {
    expect(ruleCheckSource(shopRecord(), resolver, origin)).toEqual({ errors: [], warnings: [] });
  });

  it('rejects a trajectory calling an unlisted tool, naming the record and the call', async () => {
    const record = shopRecord('shop-bad');
    record.messages.push(...executed('c9', 'nonexistent_tool_xyz', { q: 1 }, 'done'));
    const { kept, rejected } = await checkSources(
      [record],
      { resolver, file: 'sources.jsonl', lines: [3] },
      { seed: 1 },
    );
    expect(kept).toEqual([]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ id: 'shop-bad', stage: 'rule' });
    expect(rejected[0]!.reasons).toEqual([
      'messages[8].tool_calls[0].name: calls "nonexistent_tool_xyz", which is not a listed tool',
    ]);
  });

  it('rejects as Fig. 8 does (a hallucinated tool, no call at all); a schema-breaking argument is only a review finding', () => {
    const record = shopRecord('shop-args');
    record.messages[2] = {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c2', name: 'get_order_details', arguments: { order: 5 } }],
    };
    const { errors, warnings } = ruleCheckSource(record, resolver, origin);
    expect(errors).toEqual([]);
    expect(warnings.join('\n')).toMatch(/messages\[2\]\.tool_calls\[0\]\.arguments/);
    const hallucinated = shopRecord('shop-ghost');
    hallucinated.messages[2] = {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c2', name: 'get_order_status', arguments: { order_id: '#W1' } }],
    };
    expect(ruleCheckSource(hallucinated, resolver, origin).errors.join('\n')).toMatch(
      /get_order_status", which is not a listed tool/,
    );
    expect(
      ruleCheckSource({ ...shopRecord('empty'), messages: [] }, resolver, origin).errors,
    ).toContain('messages: the trajectory makes no tool call');
  });

  it('warns (does not reject) about a call without a return', () => {
    const record = shopRecord('shop-open');
    record.messages.pop();
    expect(ruleCheckSource(record, resolver, origin).warnings).toEqual([
      'messages[6].tool_calls[0]: call c4 (cancel_pending_order) has no tool return',
    ]);
  });

  it('rejects two tool calls sharing one id, naming both places (issue 24)', () => {
    const record = shopRecord('shop-dup');
    const call = record.messages[4]!;
    if (call.role !== 'assistant') throw new Error('fixture layout changed');
    call.tool_calls[0]!.id = 'c2';
    expect(ruleCheckSource(record, resolver, origin).errors).toEqual([
      'messages[4].tool_calls[0].id: duplicate tool-call id "c2" (first at messages[2].tool_calls[0])',
    ]);
  });

  it('queues every kept record for review; decisions read back accept, drop or replace records', async () => {
    const records = [shopRecord('a'), shopRecord('b'), shopRecord('c'), shopRecord('d')];
    const { review } = await checkSources(
      records,
      { resolver, file: 'sources.jsonl' },
      { seed: 1 },
    );
    expect(review.map((line) => line.decision)).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    const edited = { ...shopRecord('c'), query: 'Cancel order #W1 for ana@example.com.' };
    const decisions = [
      { line: 1, value: { ...review[0]!, decision: 'accepted' as const } },
      {
        line: 2,
        value: { ...review[1]!, decision: 'rejected' as const, note: 'query unrealistic' },
      },
      { line: 3, value: { ...review[2]!, decision: 'edited' as const, record: edited } },
    ];
    const applied = applyReview(records, decisions, { file: 'review.jsonl', reviewedOnly: false });
    expect(applied.records.map((record) => [record.id, record.query.slice(0, 6)])).toEqual([
      ['a', 'I am a'],
      ['c', 'Cancel'],
      ['d', 'I am a'],
    ]);
    expect(applied.skipped).toEqual([
      { step: 'check', parent_id: 'b', reason: 'rejected in review: query unrealistic' },
    ]);
    expect(applied.summary).toMatchObject({
      accepted: 1,
      rejected: 1,
      edited: 1,
      pending: 1,
      reviewed_only: false,
    });
    // Not asked: once any decision exists, only reviewed records are used (d is pending)…
    const byDefault = applyReview(records, decisions, { file: 'review.jsonl' });
    expect(byDefault.records.map((record) => record.id)).toEqual(['a', 'c']);
    expect(byDefault.skipped.at(-1)).toMatchObject({
      parent_id: 'd',
      reason: expect.stringMatching(/default once review decisions exist/),
    });
    // …while an untouched queue keeps every record and says so.
    const untouched = applyReview(
      records,
      review.map((value, index) => ({ line: index + 1, value })),
      { file: 'review.jsonl' },
    );
    expect(untouched.records).toHaveLength(4);
    expect(untouched.summary.why).toMatch(/no review decision yet/);
    expect(
      applyReview(records, decisions, { file: 'review.jsonl', reviewedOnly: true }).records.map(
        (record) => record.id,
      ),
    ).toEqual(['a', 'c']);
    const bad = applyReview(
      records,
      [
        {
          line: 4,
          value: { id: 'a', decision: 'edited', note: '', findings: [], record: { id: 'zz' } },
        },
      ],
      { file: 'review.jsonl', reviewedOnly: false },
    );
    expect(bad.issues[0]).toMatchObject({ file: 'review.jsonl', line: 4 });
  });
});

describe('import --from trajectories', () => {
  const line = {
    id: 'traj-1',
    messages: [
      { role: 'system', content: 'You help with orders.' },
      { role: 'user', content: [{ type: 'text', text: 'Cancel order #W1.' }] },
      {
        role: 'assistant',
        content: 'Looking the order up.',
        tool_calls: [
          {
            id: 'x1',
            type: 'function',
            function: { name: 'get_order_details', arguments: '{"order_id": "#W1"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'x1', content: '{"status": "pending"}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            type: 'function',
            function: {
              name: 'cancel_pending_order',
              arguments: { order_id: '#W1', reason: 'asked' },
            },
          },
        ],
      },
      { role: 'tool', content: 'Error: payment service down', error: true },
      { role: 'assistant', content: 'Done.' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_order_details',
          description: 'Get an order.',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
        },
      },
      { name: 'cancel_pending_order', description: 'Cancel.' },
    ],
  };

  it('turns OpenAI-style chat messages into a source record: system prompt, query, calls with parsed arguments, matched returns', () => {
    const imported = importTrajectoryLine(line, { file: 't.jsonl', line: 1, idPrefix: 't' });
    if (!imported.ok) throw new Error('expected a record');
    const { record } = imported;
    expect(record).toMatchObject({
      id: 'traj-1',
      system_prompt: 'You help with orders.',
      query: 'Cancel order #W1.',
      tool_returns: 'recorded',
    });
    expect(record.tools.map((tool) => tool.name)).toEqual([
      'get_order_details',
      'cancel_pending_order',
    ]);
    expect(record.messages[0]).toEqual({
      role: 'assistant',
      content: 'Looking the order up.',
      tool_calls: [{ id: 'x1', name: 'get_order_details', arguments: { order_id: '#W1' } }],
    });
    expect(record.messages[3]).toMatchObject({
      role: 'tool',
      tool_call_id: 'traj-1-call-1-0',
      name: 'cancel_pending_order',
      error: true,
    });
  });

  it('names file, line and field of a bad line', () => {
    const bad = importTrajectoryLine(
      { messages: [{ role: 'assistant', content: 'hi' }], tools: [] },
      { file: 't.jsonl', line: 4, idPrefix: 't' },
    );
    expect(bad).toEqual({
      ok: false,
      issues: [
        {
          file: 't.jsonl',
          line: 4,
          field: 'messages[0]',
          message: 'expected the user query (a user message with text) after the system messages',
        },
      ],
    });
    const noTools = importTrajectoryLine(
      { messages: [{ role: 'user', content: 'x' }] },
      { file: 't.jsonl', line: 5, idPrefix: 't' },
    );
    expect(noTools.ok ? [] : noTools.issues.map((issue) => `${issue.line}:${issue.field}`)).toEqual(
      ['5:tools'],
    );
  });
});

/** The NL-assertion judge's reply parsing: one boolean verdict per assertion, in order, or unjudged. */
import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../providers/fake-provider.js';
import { conversationText, createNlAssertionJudge, parseNlJudgement } from './nl-assertions.js';

const reply = (results: unknown) => JSON.stringify({ results });

describe('parseNlJudgement', () => {
  const assertions = ['Agent refuses the refund.', 'Agent offers a certificate.'];
  it('reads a verdict per assertion, fenced or with prose around it', () => {
    const text = `Here you go:\n\`\`\`json\n${reply([
      { expectedOutcome: 'x', reasoning: 'did', metExpectation: true },
      { expectedOutcome: 'y', reasoning: 'did not', metExpectation: false },
    ])}\n\`\`\``;
    expect(parseNlJudgement(text, assertions)).toEqual({
      checks: [
        { assertion: assertions[0], met: true, justification: 'did' },
        { assertion: assertions[1], met: false, justification: 'did not' },
      ],
    });
  });
  it.each([
    ['no JSON', 'They all hold.', 'the reply holds no JSON object with a "results" list'],
    [
      'too few results',
      reply([{ metExpectation: true }]),
      'the reply judges 1 outcome(s), the task has 2',
    ],
    [
      'an empty list (tau2 would score it met)',
      reply([]),
      'the reply judges 0 outcome(s), the task has 2',
    ],
    [
      'a string verdict',
      reply([{ metExpectation: 'true' }, { metExpectation: true }]),
      'result 1 has no boolean "metExpectation"',
    ],
    [
      'a truncated reply',
      '{"results": [{"metExpectation": true}',
      'the reply holds no JSON object with a "results" list',
    ],
  ])('leaves the assertions unjudged on %s', (_name, text, reason) => {
    expect(parseNlJudgement(text, assertions)).toEqual({ reason });
  });
});

describe('conversationText', () => {
  it('lays the conversation out as tau2 shows it to its judge: role: content, None for a tool-call turn', () => {
    expect(
      conversationText([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: '1', name: 'f', arguments: {} }] },
        { role: 'tool', tool_call_id: '1', name: 'f', content: 'ok', error: false },
      ]),
    ).toBe('user: hi\nassistant: None\ntool: ok');
  });
});

describe('createNlAssertionJudge', () => {
  it("sends the judge's options (--judge-seed, …) at temperature 0", async () => {
    const provider = new FakeProvider({ fallback: { text: '{"results": [{"met": true}]}' } });
    const judge = createNlAssertionJudge(provider, { seed: 13, maxOutputTokens: 321 });
    await judge.judge({ assertions: ['the agent greets'], messages: [] });
    expect(provider.requests[0]!.sampling).toEqual({
      seed: 13,
      maxOutputTokens: 321,
      temperature: 0,
    });
  });
});

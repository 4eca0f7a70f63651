import { describe, expect, it } from 'vitest';
import { derivePlan, optimalityProblem } from './holistic.js';
import { shopRecord } from './make-source.fixture.js';

describe('optimalityProblem (B.3 check on a generated reference)', () => {
  const trajectory = derivePlan(shopRecord())!.toolChain; // 4 successful calls
  it('accepts a chain no longer than the trajectory, without repeated calls', () => {
    expect(optimalityProblem(trajectory, trajectory)).toBeNull();
    expect(optimalityProblem(trajectory.slice(1), trajectory)).toBeNull();
  });
  it('rejects a repeated identical call, and a chain longer than the executed trajectory', () => {
    expect(optimalityProblem([...trajectory, trajectory[0]!], trajectory)).toMatch(
      /find_user_by_email is called twice with the same arguments/,
    );
    const extra = { name: 'list_store_hours', parameter_description: {}, reason: 'why not' };
    expect(optimalityProblem([...trajectory, extra], trajectory)).toMatch(
      /5 calls where the executed trajectory needed 4/,
    );
    // A second call of one tool with other arguments is no repeat.
    const again = { ...trajectory[1]!, parameter_description: { order_id: '#W2' } };
    expect(optimalityProblem([trajectory[0]!, trajectory[1]!, again], trajectory)).toBeNull();
  });
});

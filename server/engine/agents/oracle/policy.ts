import type { PolicyGoal } from '../../envs/policy';
import type { Episode } from '../../episode';
import type { Action } from '../../types';
import { getPolicyRule } from '../../world/policy-kb';

/** One turn: look the rule up by its title (so the answer is backed by a retrieval) and answer. */
export function policyOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as PolicyGoal;
  const rule = getPolicyRule(goal.ruleId)!;
  return {
    assistant_message: `According to our policy (${rule.title}), the answer is ${goal.answer}.`,
    tool_calls: [{ name: 'policy.search', args: { query: rule.title, top_k: 10 } }],
    answer: { env: 'POLICY', done: true, policy_answer: goal.answer },
  };
}

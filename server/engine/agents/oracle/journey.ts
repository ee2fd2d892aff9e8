import type { JourneyGoal, JourneyState } from '../../envs/journey';
import type { Episode } from '../../episode';
import type { Action, EnvId } from '../../types';

type Strategy = (episode: Episode) => Action;

/**
 * Plays the sub-task under discussion with that environment's own oracle, seen
 * through a view of the episode whose hidden goal is the sub-task's; its answer
 * becomes a JOURNEY sub-answer (done only with the last open sub-task).
 */
export function journeyOracle(episode: Episode, strategies: Partial<Record<EnvId, Strategy>>): Action {
  const hidden = episode.hiddenGoal();
  const goal = hidden.data as JourneyGoal;
  const state = hidden.state as JourneyState;
  const sub = goal.subtasks[state.current];
  const subState = state.tasks[state.current].state;
  const strategy = strategies[sub.envId as EnvId];
  if (!strategy) throw new Error(`oracle: no strategy for ${sub.envId} inside JOURNEY`);
  // The sub-task's turn budget as the env oracles read it (T_max − turn): the journey's budget is
  // T_max per sub-task, so this one may use all turns but a full T_max for each other open one
  // (else RETURN's oracle, answering early on what it thinks is its last turn, names too few).
  const open = state.answers.filter((a) => a === null).length;
  const axes = { ...episode.axes, T_max: episode.axes.T_max * (goal.subtasks.length - open + 1) };
  const view = new Proxy(episode, {
    get(target, prop) {
      if (prop === 'axes') return axes;
      if (prop === 'hiddenGoal')
        return () => ({ ...target.hiddenGoal(), envId: sub.envId, data: sub.goal, state: subState });
      if (prop === 'config') return { ...target.config, envId: sub.envId };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const action = strategy(view);
  if (!action.answer) return action;
  const { env, done: _done, ...fields } = action.answer;
  return { ...action, answer: { env: 'JOURNEY', done: open === 1, subtasks: [{ env, ...fields }] } };
}

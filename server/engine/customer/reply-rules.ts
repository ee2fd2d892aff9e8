// The reply rules (SPEC §9 calls them the reply policy), in priority order: confirm, clarify (one omitted
// slot per question), correct, then continue or elaborate. Quitting on an exhausted turn budget is the
// episode's job; quitting from frustration is decided here.

import type { EnvContext, EnvDefinition, EnvTask, TurnInfo, CustomerReply } from '../envs/types';
import type { Rng } from '../random';
import { answerQuestion, pendingSlots } from './slots';

export interface CustomerMemory {
  /** Consecutive agent turns with no successful tool call, no answered question and no answer. */
  idleTurns: number;
}

const QUIT_AFTER_IDLE_TURNS = 2;

export function customerReply(
  env: EnvDefinition<unknown>,
  task: EnvTask<unknown>,
  info: TurnInfo & { answered: boolean },
  ctx: EnvContext,
  memory: CustomerMemory,
  rng: Rng,
): CustomerReply {
  const confirmed = env.confirm?.(task, info, ctx);
  if (confirmed) return settle(memory, confirmed);

  // One question, one fact: a question fishing over several topics still gets one answer, but the
  // reply is `elaborate` (the turn counts) rather than a free `clarify`.
  const answered = answerQuestion(info.agentMessage, task.slots);
  if (answered) {
    answered.slot.revealed = true;
    return settle(memory, {
      text: sentence([answered.slot.revealText]),
      act: answered.fishing ? 'elaborate' : 'clarify',
    });
  }

  const reaction = env.respond?.(task, info, ctx);
  if (reaction) return settle(memory, reaction);

  const productive = info.answered || info.toolResults.some((r) => r.error === null);
  memory.idleTurns = productive ? 0 : memory.idleTurns + 1;
  if (memory.idleTurns >= QUIT_AFTER_IDLE_TURNS)
    return { text: "This isn't getting anywhere. I'll shop somewhere else, bye.", act: 'ragequit' };

  const pending = pendingSlots(task.slots);
  if (productive && pending.length > 0 && rng.bernoulli(0.3)) {
    const slot = pending[0];
    slot.revealed = true;
    return { text: `Oh, I forgot to say: ${slot.revealText}.`, act: 'elaborate' };
  }
  return { text: rng.pick(env.nudges), act: 'continue' };
}

function settle(memory: CustomerMemory, reply: CustomerReply): CustomerReply {
  memory.idleTurns = 0;
  return reply;
}

export function sentence(parts: string[]): string {
  const text = parts.join(', and ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

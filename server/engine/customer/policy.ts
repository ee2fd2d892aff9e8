// The reply policy (SPEC §9), in priority order: confirm, clarify, correct,
// then continue or elaborate. Quitting on an exhausted turn budget is the
// episode's job; quitting from frustration is decided here.

import type { EnvContext, EnvDefinition, EnvTask, TurnInfo, CustomerReply } from '../envs/types';
import type { Rng } from '../random';
import { asksAbout, pendingSlots } from './slots';

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

  const asked = pendingSlots(task.slots).filter((s) => asksAbout(info.agentMessage, s));
  if (asked.length > 0) {
    for (const s of asked) s.revealed = true;
    return settle(memory, { text: sentence(asked.map((s) => s.revealText)), act: 'clarify' });
  }

  const reaction = env.react?.(task, info, ctx);
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

function sentence(parts: string[]): string {
  const text = parts.join(', and ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

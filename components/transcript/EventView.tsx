'use client';
// One renderer per event kind.
import type { EpisodeEvent } from '@/server/engine/types';
import type { VoicedCustomerMessage } from '@/server/episodes/seat';
import { AgentMessage } from './events/AgentMessage';
import { CustomerMessage } from './events/CustomerMessage';
import { AnswerEvent } from './events/AnswerEvent';
import { ActionErrorEvent, RewardEvent, TerminationEvent, WorldChangeEvent, WorldChangeGroup } from './events/Notices';
import { ToolCallEvent } from './events/ToolCallEvent';

export function EventView({ event, episodeId }: { event: EpisodeEvent; episodeId?: string }) {
  switch (event.kind) {
    case 'customer_message':
      return <CustomerMessage text={event.text} act={event.act} voice={(event as VoicedCustomerMessage).voice} />;
    case 'agent_message':
      return <AgentMessage text={event.text} />;
    case 'tool_call':
      return (
        <ToolCallEvent
          name={event.name}
          args={event.args}
          result={event.result}
          error={event.error}
          index={event.index}
        />
      );
    case 'answer':
      return <AnswerEvent answer={event.answer} />;
    case 'world_change':
      return <WorldChangeEvent description={event.description} data={event.data} />;
    case 'action_error':
      return <ActionErrorEvent error={event.error} raw={event.raw} />;
    case 'termination':
      return <TerminationEvent reason={event.reason} turn={event.turn} />;
    case 'reward':
      return <RewardEvent breakdown={event.breakdown} episodeId={episodeId} />;
    default: {
      const unknownEvent: { kind?: string } = event;
      return <p className="text-xs text-slate-500">unknown event kind {String(unknownEvent.kind)}</p>;
    }
  }
}

/** Runs this long or longer of consecutive world changes fold into one card. */
const FOLD_WORLD_CHANGES = 3;

/** A turn's events in order, with long runs of world changes folded into one card. */
export function EventList({ events, episodeId }: { events: EpisodeEvent[]; episodeId?: string }) {
  const out: React.ReactNode[] = [];
  for (let i = 0; i < events.length;) {
    let j = i;
    while (j < events.length && events[j].kind === 'world_change') j++;
    if (j - i >= FOLD_WORLD_CHANGES) {
      const run = events.slice(i, j) as Array<Extract<EpisodeEvent, { kind: 'world_change' }>>;
      out.push(<WorldChangeGroup key={i} descriptions={run.map((e) => e.description)} />);
      i = j;
    } else {
      out.push(<EventView key={i} event={events[i]} episodeId={episodeId} />);
      i++;
    }
  }
  return <>{out}</>;
}

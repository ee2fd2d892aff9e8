'use client';
// The replay's transcript with who took each turn and, under a model's turn, what it saw
// and said. A client component: the per-turn renderer is a function, which a server
// component cannot hand to the (client) Transcript.
import type { ComponentProps } from 'react';
import type { ModelTurnRecord } from '@/server/models/table';
import { Transcript } from '@/components/transcript/Transcript';
import { ModelTurnPanel } from './ModelTurnPanel';

export function ModelTranscript({
  turnRecords,
  ...props
}: Omit<ComponentProps<typeof Transcript>, 'actors' | 'turnExtra'> & {
  turnRecords: Array<{ turn: number; actor: string | null; modelRecord: unknown }>;
}) {
  const actors = Object.fromEntries(turnRecords.map((r) => [r.turn, r.actor]));
  const record = (turn: number) =>
    turnRecords.find((r) => r.turn === turn)?.modelRecord as ModelTurnRecord | null | undefined;
  return (
    <Transcript
      {...props}
      actors={actors}
      turnExtra={(turn) => {
        const r = record(turn);
        return r ? <ModelTurnPanel record={r} /> : null;
      }}
    />
  );
}

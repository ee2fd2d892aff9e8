'use client';
// Let a model or a built-in agent play: choose who, Step (one turn), Play (autoplay at a
// speed), Pause; Take over hands the next turns to the person, Hand back returns them.
// A model's turn appears as it streams (display-only; the turn counts once committed).
// Labels say the real state: "you are playing", "<model> is playing", "<model> paused".
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SeatView } from '@/server/episodes/seat';
import { attempt, useTRPCClient } from '@/lib/trpc';
import { streamTurn, type TurnPartial } from '@/lib/turn-stream';
import { Button, Card, CardHeader } from '@/components/ui/primitives';

const SPEEDS = [
  { label: 'fast', pauseMs: 0 },
  { label: 'normal', pauseMs: 800 },
  { label: 'slow', pauseMs: 2500 },
] as const;

export type Control = 'person' | 'model';

/** The player select's value for a stored turn's actor ("model:x" → "connection:x", "heuristic" → "agent:heuristic"). */
export const playerOfActor = (actor: string) =>
  actor.startsWith('model:') ? `connection:${actor.slice('model:'.length)}` : `agent:${actor}`;

export function ModelSeat({
  episode,
  control,
  onControl,
  handedOver,
  initialPlayer,
  onTurn,
  onPartial,
}: {
  episode: SeatView;
  control: Control;
  onControl: (c: Control) => void;
  /** A model or agent has taken turns here before: Play hands control back to it. */
  handedOver: boolean;
  /** The player of the last stored model turn (a reload keeps it chosen). */
  initialPlayer?: string;
  onTurn: (episode: SeatView, actor: string) => void;
  /** The model's reply so far while its turn streams (null when none): display-only. */
  onPartial: (partial: TurnPartial | null) => void;
}) {
  const [options, setOptions] = useState<{ connections: string[]; agents: readonly string[] } | null>(null);
  const [player, setPlayer] = useState(initialPlayer ?? '');
  const [speed, setSpeed] = useState(1);
  const [playing, setPlaying] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const playingRef = useRef(false);
  const trpc = useTRPCClient();
  const active = episode.status === 'active';

  useEffect(() => {
    void attempt(trpc.models.players.query()).then((res) => {
      if (!res.ok) return setError(res.error);
      setOptions(res.data);
      // the oracle spoils the episode: offered, never the default
      const agents = [
        ...res.data.agents.filter((a) => a !== 'oracle'),
        ...res.data.agents.filter((a) => a === 'oracle'),
      ];
      const offered = [...res.data.connections.map((c) => `connection:${c}`), ...agents.map((a) => `agent:${a}`)];
      setPlayer((p) => (p && offered.includes(p) ? p : (offered[0] ?? '')));
    });
  }, [trpc]);

  const step = useCallback(async (): Promise<boolean> => {
    setBusy(true);
    setError(null);
    const [kind, name] = [player.slice(0, player.indexOf(':')), player.slice(player.indexOf(':') + 1)];
    const res = await streamTurn(episode.id, kind === 'agent' ? { agent: name } : { connection: name }, onPartial);
    setBusy(false);
    onPartial(null);
    if (!res.ok) {
      setError(res.error);
      return false;
    }
    onTurn(res.turn.episode, res.turn.actor);
    if (!res.turn.ok) {
      setError(
        `Infrastructure failure (${res.turn.infra.kind}), not the model's doing and not scored: ${res.turn.infra.message}`,
      );
      return false;
    }
    return res.turn.episode.status === 'active';
  }, [episode.id, player, onTurn, onPartial]);

  const play = useCallback(async () => {
    onControl('model');
    playingRef.current = true;
    setPlaying(true);
    while (playingRef.current && (await step())) {
      await new Promise((r) => setTimeout(r, SPEEDS[speed].pauseMs));
    }
    playingRef.current = false;
    setPlaying(false);
  }, [onControl, speed, step]);

  const pause = () => {
    playingRef.current = false; // the turn in flight finishes; no new one starts
    setPlaying(false);
  };

  const label = player.startsWith('connection:')
    ? `model ${player.slice('connection:'.length)}`
    : player.slice('agent:'.length);
  return (
    <Card data-testid="model-seat">
      <CardHeader
        title="Let a model play"
        right={
          <span className="text-xs text-slate-500" data-testid="seat-state">
            {!active
              ? 'episode over'
              : control === 'person'
                ? 'you are playing'
                : playing || busy
                  ? `${label} is playing`
                  : `${label} paused`}
          </span>
        }
      />
      <div className="space-y-3 px-4 py-3 text-sm">
        <label className="flex items-center gap-2">
          <span className="w-16 text-slate-600">Player</span>
          <select
            className="flex-1 rounded-md border border-slate-300 px-2 py-1"
            value={player}
            onChange={(e) => setPlayer(e.target.value)}
            disabled={playing || !options}
            data-testid="model-player"
          >
            {!options && <option value="">loading players…</option>}
            {options?.connections.map((c) => (
              <option key={c} value={`connection:${c}`}>
                model {c}
              </option>
            ))}
            {options?.agents
              .filter((a) => a !== 'oracle')
              .map((a) => (
                <option key={a} value={`agent:${a}`}>
                  built-in {a}
                </option>
              ))}
            {/* offered to the inspector only (the server lists it for the admin alone) */}
            {options?.agents.includes('oracle') && (
              <optgroup label="inspector only">
                <option value="agent:oracle">oracle: reads the hidden goal, marks the episode spoiled</option>
              </optgroup>
            )}
          </select>
        </label>
        <label className="flex items-center gap-2">
          <span className="w-16 text-slate-600">Speed</span>
          <select
            className="rounded-md border border-slate-300 px-2 py-1"
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value))}
            data-testid="model-speed"
          >
            {SPEEDS.map((s, i) => (
              <option key={s.label} value={i}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => (onControl('model'), void step())}
            disabled={!active || !player || busy || playing}
            data-testid="model-step"
          >
            Step
          </Button>
          {playing ? (
            <Button onClick={pause} data-testid="model-pause">
              Pause
            </Button>
          ) : (
            <Button
              variant="primary"
              onClick={() => void play()}
              disabled={!active || !player || busy}
              data-testid="model-play"
            >
              {control === 'person' && handedOver ? 'Hand back and play' : 'Play'}
            </Button>
          )}
          <Button
            variant="accent"
            onClick={() => {
              pause();
              onControl('person');
            }}
            disabled={!active || control === 'person'}
            data-testid="take-over"
          >
            Take over
          </Button>
        </div>
        {busy && (
          <p className="text-xs text-slate-500" data-testid="model-thinking">
            {label} is taking its turn…
          </p>
        )}
        {error && (
          <p
            className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900"
            role="alert"
            data-testid="model-error"
          >
            {error}
          </p>
        )}
      </div>
    </Card>
  );
}

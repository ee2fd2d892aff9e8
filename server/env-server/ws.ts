// The WebSocket session (OpenEnv's /ws): one connection plays one episode at a time.
// In:  {type:"reset", data:{env,d,seed,run,…}} | {type:"step", data:<action>} | {type:"state"} | {type:"close"}
//      | {type:"mcp", data:<JSON-RPC request>}
// Out: {type:"observation", data:{observation,reward,done}} | {type:"state", data:{episode_id,step_count,…}}
//      | {type:"mcp", data:<JSON-RPC response>} | {type:"error", data:{message,code,episode_id,errors?}}
// (OpenEnv's models; the episode id and token are in observation.metadata, openenv-wire.ts.)
// The connection itself is the capability for its episode; a connection opened with the admin
// token as "Authorization: Bearer …" reads the full state (simulation mode only).

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EnvServerError, asEnvServerError } from './errors';
import { createFrameQueue } from './frame-queue';
import { ClientShare } from './client-share';
import type { EnvService } from './protocol';
import type { ClientBudget } from '@/server/lib/client-budget';
import { bearerToken, type TokenService } from '@/server/episodes/tokens';
import { handleMcp } from './mcp';
import { wireReset, wireState, wireStep } from './openenv-wire';

/** Close codes: 1013 = try again later (capacity), 4008 = idle timeout. */
export const WS_CLOSE = { capacity: 1013, idle: 4008 } as const;

const TEXT = { binary: false } as const;

export function createWsGateway(service: EnvService, tokens: TokenService, budget: ClientBudget | null = null) {
  const { config } = service;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.maxBodyBytes,
    // one message per macrotask as ws parses them: a burst read at once (the socket resumed after
    // a pause) does not emit hundreds of messages in one go (a flood of 200 KB frames held
    // another client's /health 360–456 ms with synchronous events, 140–182 ms without; load 16)
    allowSynchronousEvents: false,
  });
  // WebSocket sessions held: capped per client, shared fairly between clients when full (client-share.ts)
  const share = new ClientShare({
    max: config.maxSessions,
    perClient: config.maxSessionsPerClient,
    what: 'WebSocket sessions open',
  });

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // Protocol violations (an oversized frame: 1009) close the socket by themselves; without a
    // listener they would be thrown and take the whole server down.
    socket.on('error', () => {});

    const bearer = bearerToken(request.headers.authorization);
    const admin = tokens.isAdmin(bearer);
    // The connection's episode and its capability token (the episode itself may be rebuilt).
    let current: { id: string; token: string } | null = null;
    const counted = budget !== null && !admin;
    let frameBytes = 0; // the message being answered
    const send = (type: string, data: unknown) => {
      if (socket.readyState !== socket.OPEN) return;
      const text = JSON.stringify({ type, data });
      socket.send(text, TEXT);
      // what a write stored: the message (as sent) and the events its answer shows
      if (counted && (type === 'observation' || type === 'mcp'))
        budget.stored(client, frameBytes + Buffer.byteLength(text));
    };
    const sendError = (e: unknown) => {
      const err = asEnvServerError(e, current?.id ?? null);
      send('error', {
        message: err.message,
        code: err.code,
        episode_id: err.episodeId ?? current?.id ?? null,
        // as OpenEnv's WS errors: where in the action (its HTTP `detail` says ["body", "action", …])
        ...(err.detail ? { errors: err.detail.map((d) => ({ ...d, loc: d.loc.slice(2) })) } : {}),
      });
    };
    const client = request.socket.remoteAddress ?? '?';

    let place;
    try {
      place = share.admit(client, {
        // closed to make room for a client holding fewer sessions
        evict: () => {
          sendError(
            new EnvServerError(
              'CAPACITY_REACHED',
              `the server is full (ECOMRLVE_MAX_SESSIONS=${config.maxSessions}) and another client needed a place; this client holds the most sessions, and this was its least recently active`,
            ),
          );
          socket.close(WS_CLOSE.capacity, 'capacity reached');
        },
      });
    } catch (e) {
      sendError(e);
      return socket.close(WS_CLOSE.capacity, 'capacity reached');
    }

    // Re-armed on every message (refresh: no new timer per message).
    const idle = setTimeout(() => {
      sendError(
        new EnvServerError('SESSION_TIMEOUT', `no message for ${config.idleTimeoutMs / 1000} s; the session is closed`),
      );
      socket.close(WS_CLOSE.idle, 'idle timeout');
    }, config.idleTimeoutMs);

    // An unfinished episode nobody can reach any more only takes room.
    const abandon = () => {
      const held = current && service.sessions.peek(current.id);
      if (held && !held.episode.done) service.sessions.drop(held.id);
    };

    // Messages are handled one after another, so answers keep the order of the requests even
    // while a step waits for its write to commit; fairly, so one socket's flood waits for its
    // own answers, not everyone's (frame-queue.ts).
    const frames = createFrameQueue<[Buffer, boolean]>(
      async ([raw, isBinary]) => {
        frameBytes = raw.length;
        const refused = counted ? budget.charge(client, raw.length) : null;
        if (refused) return sendError(new EnvServerError(refused.code, refused.message));
        await handle(raw, isBinary);
      },
      {
        pause: () => socket.pause(),
        resume: () => socket.resume(),
      },
    );
    socket.on('message', (raw, isBinary) => {
      idle.refresh();
      share.touch(place);
      frames.push([raw as Buffer, isBinary], (raw as Buffer).length);
    });

    const handle = async (raw: Buffer, isBinary: boolean) => {
      try {
        let msg: unknown;
        try {
          msg = JSON.parse(isBinary ? Buffer.from(raw).toString('utf8') : raw.toString());
        } catch (e) {
          throw new EnvServerError('INVALID_JSON', `the message is not valid JSON: ${(e as Error).message}`);
        }
        const type = (msg as { type?: unknown })?.type;
        const data = (msg as { data?: unknown })?.data;
        switch (type) {
          case 'reset': {
            abandon();
            current = null;
            const { response } = service.reset(data ?? {});
            current = { id: response.episode_id, token: response.token };
            return send('observation', wireReset(await service.durable(response), config.mode));
          }
          case 'step': {
            if (!current) throw new EnvServerError('NO_EPISODE', 'send {"type":"reset"} before stepping');
            return send(
              'observation',
              wireStep(await service.stepEpisode(current.id, current.token, data, null, true)),
            );
          }
          case 'state': {
            if (!current) throw new EnvServerError('NO_EPISODE', 'send {"type":"reset"} before asking for state');
            return send(
              'state',
              wireState(await service.stateRequest(current.id, admin ? bearer : current.token), config.mode),
            );
          }
          case 'mcp': {
            const answer = await handleMcp(service, data, {
              episode: current,
              connection: true,
              started: (episode) => {
                abandon();
                current = episode;
              },
            });
            return answer === null ? undefined : send('mcp', answer);
          }
          case 'close':
            return socket.close(1000, 'closed by client');
          default:
            throw new EnvServerError(
              'UNKNOWN_TYPE',
              typeof type === 'string'
                ? `unknown message type "${type}"; types: reset, step, state, mcp, close`
                : 'the message needs a "type": reset, step, state, mcp or close',
            );
        }
      } catch (e) {
        sendError(e);
      }
    };

    socket.on('close', () => {
      clearTimeout(idle);
      share.release(place);
      abandon();
    });
  });

  return {
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    get open() {
      return share.size;
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

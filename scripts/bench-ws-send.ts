// npx tsx scripts/bench-ws-send.ts [--answers 20000] [--rounds 12] [--connections 16] [--port 3345]
// The WebSocket answer's send path alone, old against new in one process over real loopback
// sockets: the oracle's answers (every env) sent as the text `{"type":"observation","data":…}`
// made by responseJson (how ws.ts sent them until round 12: `ws` measures the string and the
// socket's write encodes it) or as wireBytes' UTF-8 with the tool specs copied in. A child
// process echoes each answer with a request for the next, so the server's CPU per answer
// (process.cpuUsage, all its threads) covers the JSON, the encoding, `ws` and the syscalls.
// The ways alternate ABBA per round; the first two rounds are warm-up. docs/env-server-rounds.md.

import { fork } from 'node:child_process';
import { WebSocket, WebSocketServer } from 'ws';
import { DEFAULT_CATALOG_ID, getCatalog } from '../server/catalogs';
import { loadConfig } from '../server/env-server/config';
import { buildEnvService } from '../server/env-server/server';
import { responseJson, wireBytes } from '../server/env-server/wire-json';
import { recordScript } from './bench-api-lib';
import { benchOptions, positive } from './bench-options';

const { answers, rounds, connections, port } = benchOptions('npx tsx scripts/bench-ws-send.ts [options]', {
  answers: positive(20000, 'answers sent per round', true),
  rounds: positive(12, 'rounds after two of warm-up (old and new alternating ABBA)', true),
  connections: positive(16, 'WebSocket connections', true),
  port: positive(3345, 'loopback port', true),
});
const PREFIX = '{"type":"observation","data":';

if (process.env.BENCH_WS_SEND_CLIENT) {
  let open = 0;
  process.setMaxListeners(connections + 1);
  for (let i = 0; i < connections; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    ws.on('open', () => void (++open === connections && process.send!('ready')));
    ws.on('message', () => ws.send('next'));
    ws.on('error', (e) => console.error(e));
    process.on('message', () => ws.send('next'));
  }
} else {
  const catalog = getCatalog(DEFAULT_CATALOG_ID);
  const { service } = buildEnvService(loadConfig({}, ['--persist', 'off'], DEFAULT_CATALOG_ID), catalog);
  const bodies: unknown[] = [];
  for (let session = 0; session < 64; session++)
    for (let n = 0; n < 4; n++) {
      const script = recordScript(catalog, 'oracle', session, n);
      const { live, response } = service.reset(JSON.parse(script.reset));
      bodies.push(response);
      for (const action of script.actions) bodies.push(service.stepLive(live, JSON.parse(action)));
      service.sessions.drop(live.id);
    }

  let way: 'old' | 'new' = 'old';
  let sent = 0;
  let next = 0;
  let roundDone = () => {};
  const wss = new WebSocketServer({ port, host: '127.0.0.1' });
  wss.on('connection', (socket) =>
    socket.on('message', () => {
      if (sent === answers) return void (sent++, roundDone());
      if (sent > answers) return;
      const body = bodies[next++ % bodies.length];
      sent++;
      if (way === 'old') socket.send(`${PREFIX}${responseJson(body)}}`);
      else socket.send(wireBytes(body, PREFIX, '}'), { binary: false });
    }),
  );
  const child = fork(process.argv[1], process.argv.slice(2), {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_WS_SEND_CLIENT: '1' },
  });
  await new Promise((resolve) => child.once('message', resolve));

  const perAnswer: Record<'old' | 'new', number[]> = { old: [], new: [] };
  for (let r = 0; r < rounds + 2; r++) {
    way = r % 4 === 0 || r % 4 === 3 ? 'old' : 'new';
    sent = 0;
    const start = process.cpuUsage();
    await new Promise<void>((resolve) => {
      roundDone = resolve;
      child.send('go');
    });
    const used = process.cpuUsage(start);
    if (r >= 2) perAnswer[way].push((used.user + used.system) / answers);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  for (const w of ['old', 'new'] as const)
    console.log(
      `${w}: ${perAnswer[w].map((x) => x.toFixed(1)).join(' ')} µs of CPU an answer, median ${median(perAnswer[w]).toFixed(1)}`,
    );
  child.kill();
  wss.close();
}

// The agent server's heuristic drivers left after their last turn, keyed by a hash of the
// observations they have read: a long JOURNEY is not replayed from turn 1 on every request.
import { createHash } from 'node:crypto';
import type { Observation } from '@/server/engine';
import type { HeuristicDriver, HeuristicDrivers } from '@/server/models/agents';

const key = (observations: Observation[]) =>
  createHash('sha256')
    .update(JSON.stringify(observations.map((o) => [o.envId, o.turn, o.budgets, o.customerMessage, o.toolResults])))
    .digest('hex');

/** At most `size` drivers (0: none kept), the oldest evicted first; each is handed out once. */
export class DriverCache implements HeuristicDrivers {
  private readonly drivers = new Map<string, HeuristicDriver>();
  constructor(private readonly size: number) {}

  take(observations: Observation[]): HeuristicDriver | undefined {
    const k = key(observations);
    const driver = this.drivers.get(k);
    this.drivers.delete(k);
    return driver;
  }
  put(observations: Observation[], driver: HeuristicDriver) {
    if (this.size <= 0) return;
    this.drivers.set(key(observations), driver);
    while (this.drivers.size > this.size) this.drivers.delete(this.drivers.keys().next().value!);
  }
}

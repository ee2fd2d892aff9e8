import { describe, expect, it } from 'vitest';
import { createFrameQueue } from './frame-queue';

describe('createFrameQueue', () => {
  it('handles items in order, one at a time, even when a handler waits', async () => {
    const seen: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const q = createFrameQueue<number>(
      async (n) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, n % 3));
        seen.push(n);
        inFlight--;
      },
      { pause: () => {}, resume: () => {} },
    );
    for (let i = 0; i < 20; i++) q.push(i);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([...Array(20).keys()]);
    expect(maxInFlight).toBe(1);
  });

  it('lets other work run between two items (a macrotask each), where a promise chain would not', async () => {
    const order: string[] = [];
    const q = createFrameQueue<number>(async (n) => void order.push(`item ${n}`), {
      pause: () => {},
      resume: () => {},
    });
    for (let i = 0; i < 3; i++) q.push(i);
    setImmediate(() => order.push('other'));
    await new Promise((r) => setTimeout(r, 20));
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('item 2'));
  });

  it('waits no macrotask after a message when none is waiting (one a second per socket is the usual pace)', async () => {
    const handled: string[] = [];
    const q = createFrameQueue<string>(async (m) => void handled.push(m), { pause: () => {}, resume: () => {} });
    const microtasks = async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };
    q.push('a');
    await microtasks();
    q.push('b'); // the queue is idle again: handled at once, not after a turn of the event loop
    await microtasks();
    expect(handled).toEqual(['a', 'b']);
  });

  it('pauses its source at the high mark and resumes it at half', async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = createFrameQueue<number>(
      async (n) => {
        if (n === 0) await gate;
      },
      { high: 4, pause: () => events.push(`pause at ${q.size}`), resume: () => events.push(`resume at ${q.size}`) },
    );
    for (let i = 0; i < 6; i++) q.push(i);
    expect(events).toEqual(['pause at 4']);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['pause at 4', 'resume at 2']);
    expect(q.size).toBe(0);
  });

  it('pauses its source when its queued bytes reach highBytes, before the message count does', async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = createFrameQueue<number>(
      async (n) => {
        if (n === 0) await gate;
      },
      {
        highBytes: 1000,
        pause: () => events.push(`pause at ${q.size}`),
        resume: () => events.push(`resume at ${q.size}`),
      },
    );
    for (let i = 0; i < 4; i++) q.push(i, 400); // 32 messages would be the count's mark
    expect(events).toEqual(['pause at 3']); // 0 is being handled; 1..3 hold 1,200 bytes
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['pause at 3', 'resume at 1']);
  });
});

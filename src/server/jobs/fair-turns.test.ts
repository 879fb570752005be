import { describe, expect, it } from 'vitest';
import { createFairTurns } from './fair-turns.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('fair turns', () => {
  it('gives a user alone every slot', async () => {
    const turns = createFairTurns({ slots: 3, maxWaitingPerKey: 10 });
    const releases = await Promise.all([turns.take('a'), turns.take('a'), turns.take('a')]);
    expect(releases.every(Boolean)).toBe(true);
    let fourth = false;
    void turns.take('a').then(() => (fourth = true));
    await tick();
    expect(fourth).toBe(false);
    releases[0]!();
    await tick();
    expect(fourth).toBe(true);
  });

  it('serves waiting users in rotation, so a flood from one user delays another by one turn', async () => {
    const turns = createFairTurns({ slots: 1, maxWaitingPerKey: 100 });
    const order: string[] = [];
    const first = (await turns.take('flood'))!;
    // Each request does its work (noted in `order`) and gives its turn back at once.
    const served = (key: string) =>
      turns.take(key).then((release) => {
        order.push(key);
        release!();
      });
    const all = [...Array.from({ length: 20 }, () => served('flood')), served('other')];
    await tick();
    first();
    await Promise.all(all);
    expect(order.indexOf('other')).toBeLessThanOrEqual(1);
    expect(order).toHaveLength(21);
  });

  it('refuses a user whose queue is full, and only that user', async () => {
    const turns = createFairTurns({ slots: 1, maxWaitingPerKey: 2 });
    const held = (await turns.take('a'))!;
    const served = (key: string) => turns.take(key).then((release) => release?.());
    const queued = [served('a'), served('a')];
    expect(await turns.take('a')).toBeUndefined();
    const other = served('b');
    held();
    await Promise.all([...queued, other]);
  });
});

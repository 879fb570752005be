import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../http/app-error.ts';
import { createSignInThrottle, SIGN_IN_THROTTLE } from './sign-in-throttle.ts';

async function waitDemanded(attempt: Promise<void>): Promise<number> {
  try {
    await attempt;
    return 0;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return Number((error as AppError).headers?.['retry-after']);
  }
}

describe('sign-in throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('doubles the wait with every failure past the free ones, up to the cap', async () => {
    const throttle = createSignInThrottle();
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      const wait = await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.1'));
      expect(wait).toBe(0);
      await throttle.recordFailure('a@example.com', '10.0.0.1');
      const demanded = await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.1'));
      waits.push(demanded);
      await vi.advanceTimersByTimeAsync(demanded * 1000);
    }
    const free = SIGN_IN_THROTTLE.freeFailuresPerClient;
    expect(waits.slice(0, free)).toEqual(Array(free).fill(0));
    expect(waits.slice(free, free + 5)).toEqual([2, 4, 8, 16, 32]);
    expect(Math.max(...waits)).toBe(SIGN_IN_THROTTLE.maxDelaySeconds);
  });

  it('keeps a client that has not failed free to try, and a success clears only its own record', async () => {
    const throttle = createSignInThrottle();
    for (let i = 0; i < 6; i++) await throttle.recordFailure('a@example.com', '10.0.0.1');
    expect(await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.1'))).toBeGreaterThan(0);
    expect(await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.2'))).toBe(0);
    await throttle.recordSuccess('a@example.com', '10.0.0.2');
    expect(await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.1'))).toBeGreaterThan(0);
  });

  it('gives no free failures once an account draws failures from many clients', async () => {
    const throttle = createSignInThrottle();
    for (let i = 0; i <= SIGN_IN_THROTTLE.perAccountBeforeStrict; i++) {
      await throttle.recordFailure('target@example.com', `10.9.0.${i + 1}`);
    }
    await throttle.recordFailure('target@example.com', '10.9.1.1');
    expect(await waitDemanded(throttle.assertMayTry('target@example.com', '10.9.1.1'))).toBe(2);
    // A client with no failure is still let through.
    expect(await waitDemanded(throttle.assertMayTry('target@example.com', '10.9.1.2'))).toBe(0);
  });

  it('forgets failures after the window', async () => {
    const throttle = createSignInThrottle();
    for (let i = 0; i < 5; i++) await throttle.recordFailure('a@example.com', '10.0.0.1');
    await vi.advanceTimersByTimeAsync((SIGN_IN_THROTTLE.windowSeconds + 1) * 1000);
    await throttle.recordFailure('a@example.com', '10.0.0.1');
    expect(await waitDemanded(throttle.assertMayTry('a@example.com', '10.0.0.1'))).toBe(0);
  });
});

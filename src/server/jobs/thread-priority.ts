import { readlinkSync } from 'node:fs';
import os from 'node:os';

/** Niceness of threads that render and convert: below the event loop, which answers everyone. */
export const BACKGROUND_THREAD_NICENESS = 10;

/**
 * Lowers the calling thread's CPU priority, so on a busy machine the kernel runs the event loop
 * (requests, health checks) before renders and imports, which only take longer. Linux schedules
 * each thread on its own and names the calling one in /proc/thread-self; elsewhere, or where the
 * system refuses, threads keep the process's priority.
 */
export function lowerThisThreadsPriority(niceness = BACKGROUND_THREAD_NICENESS): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    os.setPriority(threadId, Math.max(os.getPriority(threadId), niceness));
    return true;
  } catch {
    return false;
  }
}

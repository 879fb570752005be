import os from 'node:os';

/**
 * The cores one server process may keep busy with its thread pools. WEB_CONCURRENCY processes on
 * one machine share its cores: each sized to the whole machine, N processes would run N times as
 * many render threads as there are cores, and every render would only take longer. The share is
 * at least one, so each process can still render.
 */
export function coresPerProcess(processes: number, cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / Math.max(1, processes)));
}

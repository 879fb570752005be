/**
 * Memory of a process's descendants (Linux /proc). Used for Chromium, whose work happens in
 * browser, renderer and GPU/utility processes started by the engine's node process.
 *
 * We sum PSS (proportional set size, from /proc/<pid>/smaps_rollup): pages shared between the
 * Chromium processes are split among them, so the sum is the tree's real footprint rather than
 * counting the shared browser binary once per process, as a sum of RSS would. Where
 * smaps_rollup is not readable, RSS is used.
 */
import { readFileSync, readdirSync } from 'node:fs';

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 4 (ppid) follows the ")" that closes the command name.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return null;
  }
}

export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    const pid = Number(e);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const ppid = parentOf(pid);
    if (ppid === null) continue;
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function memKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'));
    if (m) return Number(m[1]);
  } catch {
    // fall through to RSS
  }
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Summed PSS of all descendants of `root`, in kB. */
export function descendantsMemKb(root: number): number {
  let kb = 0;
  for (const pid of descendants(root)) kb += memKb(pid);
  return kb;
}

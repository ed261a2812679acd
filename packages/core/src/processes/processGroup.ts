/**
 * Signals every process in the group led by `pid` (children, grandchildren, pipelines), which
 * killing `pid` alone would leave running. False when the group no longer exists.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function processGroupAlive(pid: number): boolean {
  return signalProcessGroup(pid, 0);
}

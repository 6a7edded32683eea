import { readdirSync, readFileSync } from 'node:fs'

/**
 * Process-group and session helpers. A PTY's child is a session leader, so its pid is both its
 * process group id and its session id. Job control (an interactive shell running `cmd &`) puts
 * jobs in groups of their own inside that session, which a plain `kill(-pid)` would miss; on Linux
 * we therefore also signal every group found in the session through /proc.
 */

/** Process ids and group ids of every process in session `sid` (Linux; empty elsewhere). */
export function sessionMembers(sid: number): Array<{ pid: number; pgid: number }> {
  if (process.platform !== 'linux') return []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const members: Array<{ pid: number; pgid: number }> = []
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // exited meanwhile
    }
    // "pid (comm) state ppid pgrp session ..."; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const pgid = Number(fields[2])
    const session = Number(fields[3])
    if (session === sid) members.push({ pid: Number(entry), pgid })
  }
  return members
}

/** Sends `signal` to a process group, ignoring "no such process". */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/** Signals the group `sid` and every other group of session `sid`. */
export function killSessionTree(sid: number, signal: NodeJS.Signals): void {
  killGroup(sid, signal)
  const groups = new Set(sessionMembers(sid).map((member) => member.pgid))
  groups.delete(sid)
  for (const pgid of groups) killGroup(pgid, signal)
}

/** Whether a process exists (and is not a zombie). */
export function isAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../base/atomic-write'
import { processAlive } from '../../base/process-alive'

/**
 * One open session as the others on this machine see it: `$SOUS_HOME/peers/sessions/<id>.json`.
 * `name` is a label the session chose (never an instruction to whoever reads it); `ref` tells two
 * of one name apart; `pid` is how a reader knows the entry is alive.
 */
export const PeerEntry = z.object({
  sessionId: z.string(),
  ref: z.string(),
  name: z.string(),
  pid: z.number().int().positive(),
  projectPath: z.string(),
  mode: z.string().optional(),
  state: z.enum(['busy', 'idle']),
  startedAt: z.number(),
  updatedAt: z.number(),
})
export type PeerEntry = z.infer<typeof PeerEntry>

/** Where the sessions of this machine find each other: `$SOUS_HOME/peers`. */
export function peersDir(sousHome: string): string {
  return join(sousHome, 'peers')
}

/** A session id as a file name: letters, digits, `-` and `_` (a UUID is). */
const FILE_NAME = /^[A-Za-z0-9_-]{1,64}$/

function entryPath(root: string, sessionId: string): string {
  if (!FILE_NAME.test(sessionId)) throw new Error(`"${sessionId}" is not a usable session id.`)
  return join(root, 'sessions', `${sessionId}.json`)
}

/** Writes (or rewrites) a session's entry, atomically: a reader never sees half of it. */
export async function publishPeer(root: string, entry: PeerEntry): Promise<void> {
  await writeFileAtomic(entryPath(root, entry.sessionId), JSON.stringify(entry, null, 2), 0o600)
}

/** Removes a session's entry (it closed). Never throws. */
export async function unpublishPeer(root: string, sessionId: string): Promise<void> {
  await rm(entryPath(root, sessionId), { force: true }).catch(() => undefined)
}

/**
 * The live sessions of this machine. An entry whose process is gone (a crash, a kill) is stale:
 * it is removed, not listed. An entry that cannot be read as one is skipped (and left alone: it
 * may be mid-write by an older version, and it names no process to check).
 * Contract: never throws; a missing folder is an empty list.
 */
export async function listPeers(root: string, alive: (pid: number) => boolean = processAlive): Promise<PeerEntry[]> {
  let names: string[]
  try {
    names = await readdir(join(root, 'sessions'))
  } catch {
    return []
  }
  const entries: PeerEntry[] = []
  for (const name of names) {
    if (!name.endsWith('.json')) continue
    const file = join(root, 'sessions', name)
    let parsed: PeerEntry
    try {
      const checked = PeerEntry.safeParse(JSON.parse(await readFile(file, 'utf8')))
      if (!checked.success) continue
      parsed = checked.data
    } catch {
      continue
    }
    if (!alive(parsed.pid)) {
      await rm(file, { force: true }).catch(() => undefined)
      continue
    }
    entries.push(parsed)
  }
  return entries.sort((a, b) => a.startedAt - b.startedAt)
}

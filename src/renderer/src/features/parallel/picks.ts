import type { HunkDecision } from '../../../../shared/edit-review'
import type { MergePickInput } from '../../../../shared/ipc/contract'

/** One session's file: its hunk decisions (`accepted`: picked), or the whole file. */
export type FilePick = ReadonlyArray<HunkDecision | undefined> | 'all'

/** What the user picked so far: session id → path → the file's pick. */
export type Picks = Readonly<Record<string, Readonly<Record<string, FilePick>>>>

/** The picks with `pick` set for one session's file (`undefined` removes it). */
export function withPick(picks: Picks, sessionId: string, path: string, pick: FilePick | undefined): Picks {
  const files = { ...(picks[sessionId] ?? {}) }
  if (pick === undefined) delete files[path]
  else files[path] = pick
  return { ...picks, [sessionId]: files }
}

/** The picks with hunk `index` of one session's file decided. */
export function withHunk(picks: Picks, sessionId: string, path: string, index: number, decision: HunkDecision): Picks {
  const now = picks[sessionId]?.[path]
  const decisions = now === 'all' || now === undefined ? [] : [...now]
  decisions[index] = decision
  return withPick(picks, sessionId, path, decisions)
}

/** The picks as the contract sends them: a file with no hunk picked is left out. */
export function toPickInputs(picks: Picks): MergePickInput[] {
  const out: MergePickInput[] = []
  for (const [sessionId, files] of Object.entries(picks)) {
    for (const [path, pick] of Object.entries(files)) {
      if (pick === 'all') out.push({ sessionId, path, hunks: 'all' })
      else {
        const hunks = pick.flatMap((decision, index) => (decision === 'accepted' ? [index] : []))
        if (hunks.length > 0) out.push({ sessionId, path, hunks })
      }
    }
  }
  return out
}

/** How many hunks (a whole file counts as one) the picks take. */
export function countPicks(picks: Picks): number {
  return toPickInputs(picks).reduce((sum, pick) => sum + (pick.hunks === 'all' ? 1 : pick.hunks.length), 0)
}

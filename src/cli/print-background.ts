import type { QueryResult } from '../main/engine/types'
import type { BackgroundEnd } from '../main/runtime/background-news'
import type { RuntimeSessionParts } from '../main/runtime/open-session'
import type { SessionManager } from '../main/session/session-manager'
import { combineTurns } from '../main/session/turn-feed'

/** What the run's background work came to. */
export interface BackgroundRun {
  /** The prompt's turn and the notification turns after it, as one result (see combineTurns). */
  combined: QueryResult
  /** Set when the cap was reached: what was still running (and was stopped), and the wait. */
  capped?: { waitedS: number; stopped: string[] }
}

/**
 * `sous -p` as Claude Code's `-p`: runs the prompt's turn, then stays up while the main agent's
 * background agents and commands run; each end is delivered as a notification (a turn of its own
 * when the agent is idle), and the run ends when a turn ends with nothing left running. The wait is
 * capped at `maxWaitS` (0: none): then the rest is stopped and `capped` says what. `onTurn` hears
 * every turn as it ends, the prompt's first; `onEnd` every end of background work.
 */
export async function runWithBackground(o: {
  manager: SessionManager<RuntimeSessionParts>
  sessionId: string
  prompt: string
  maxWaitS: number
  signal?: AbortSignal
  onTurn(result: QueryResult): void
  onEnd(end: BackgroundEnd): void
}): Promise<BackgroundRun> {
  const news = o.manager.parts(o.sessionId)?.background
  const later: QueryResult[] = []
  const offTurn = news?.onTurn((result) => {
    later.push(result)
    o.onTurn(result)
  })
  const offEnd = news?.onEnd(o.onEnd)
  try {
    const first = await o.manager.run(o.sessionId, o.prompt)
    o.onTurn(first)
    if (!news || first.reason !== 'completed' || o.signal?.aborted) return { combined: first }
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    const outcome = await Promise.race([
      news.settled().then(() => 'settled' as const),
      new Promise<'capped'>((resolve) => (timer = setTimeout(() => resolve('capped'), o.maxWaitS * 1000))),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted')
        o.signal?.addEventListener('abort', onAbort, { once: true })
      }),
    ])
    clearTimeout(timer)
    if (onAbort) o.signal?.removeEventListener('abort', onAbort)
    if (outcome === 'settled') return { combined: combineTurns(first, later) }
    const stopped = news.running()
    await news.close()
    // A notification turn still running is stopped too (its result is reported as it ends).
    await o.manager.abort(o.sessionId)
    const combined = combineTurns(first, later)
    if (outcome === 'aborted') return { combined: { ...combined, reason: 'aborted', message: 'Stopped while background work was still running.' } }
    return { combined, capped: { waitedS: o.maxWaitS, stopped } }
  } finally {
    offTurn?.()
    offEnd?.()
  }
}

/** The line `sous -p` prints (stderr, and the result's `error`) when the cap stopped background work. */
export function cappedLine(capped: NonNullable<BackgroundRun['capped']>): string {
  const what = capped.stopped.length > 0 ? capped.stopped.join(', ') : 'the background work'
  return `background work was still running after --max-background-wait ${capped.waitedS} s and was stopped: ${what}`
}

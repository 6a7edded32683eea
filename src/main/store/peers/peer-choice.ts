import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../base/atomic-write'

/**
 * The user's per-session toggle for messages from other sessions (accept, hold, refuse), kept on
 * disk beside the held messages so it outlives the process as they do:
 * `$SOUS_HOME/peers/policy/<session id>.json`, `{"policy": "hold"}`. No file: the settings decide.
 */
const Choice = z.object({ policy: z.enum(['accept', 'hold', 'refuse']) })

/** A session id as a file name (as the registry's and the held messages'). */
const FILE_NAME = /^[A-Za-z0-9_-]{1,64}$/

function choicePath(root: string, sessionId: string): string | undefined {
  return FILE_NAME.test(sessionId) ? join(root, 'policy', `${sessionId}.json`) : undefined
}

/**
 * The stored toggle of a session, read synchronously (a few bytes, once as the session opens, so
 * its first status and its first message already follow it). Contract: never throws; a missing,
 * unreadable or damaged file reads as no toggle, and `onProblem` hears of a damaged one.
 */
export function readPeerChoice(root: string, sessionId: string, onProblem: (message: string) => void = () => {}): 'accept' | 'hold' | 'refuse' | undefined {
  const file = choicePath(root, sessionId)
  if (!file) return undefined
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  try {
    const checked = Choice.safeParse(JSON.parse(raw))
    if (checked.success) return checked.data.policy
  } catch {
    // Not JSON: said below.
  }
  onProblem(`The stored choice for messages from other sessions (${file}) could not be read, so the settings decide again.`)
  return undefined
}

/** Keeps the toggle (`undefined`: back to the settings, the file removed). Rejects when the file cannot be written. */
export async function writePeerChoice(root: string, sessionId: string, policy: 'accept' | 'hold' | 'refuse' | undefined): Promise<void> {
  const file = choicePath(root, sessionId)
  if (!file) return
  if (policy === undefined) await rm(file, { force: true })
  else await writeFileAtomic(file, `${JSON.stringify({ policy })}\n`, 0o600)
}

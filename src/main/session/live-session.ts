import type { PermissionModeName } from '../../shared/ipc/contract'
import type { PeerPolicyName, PeerStatus } from '../../shared/ipc/peers'
import type { QueryResult } from '../engine/types'
import type { AutoDecision } from '../governance/auto/decision-log'
import { Session, type SessionEnvironment, type SessionSeed } from './session'

/**
 * What the runtime builds for one session before the session itself (see runtime/open-session.ts):
 * the environment the session is built from, and what only the session's owner reaches.
 */
export interface SessionParts {
  /** What the session is built from, its own paths aside (the manager adds them). */
  environment: Omit<SessionEnvironment, 'projectDataDir' | 'transcriptPath'>
  /** Switches the permission mode of the session's gate; absent where the parts have no gate. */
  setMode?(mode: PermissionModeName): void
  /** The gate's mode now (absent where the parts have no gate). */
  mode?(): PermissionModeName
  /** Auto mode's decision log and "ask me next time" (absent where the parts have no gate). */
  auto?: {
    decisions(): AutoDecision[]
    askNextTime(decisionId: string, scope: 'session' | 'project'): string | undefined
    /** `disableAutoMode` is set: the mode cannot be switched to auto. */
    off(): boolean
  }
  /** The session among the sessions of this machine (absent where the parts publish none). */
  peers?: {
    status(): PeerStatus
    setOverride(policy: PeerPolicyName | undefined): void
    settleHeld(id: string, action: 'release' | 'drop'): boolean
  }
  /**
   * Coordinator mode: resolves once every worker has reported and the turns the reports started
   * have ended, with those turns' results (`sous -p --coordinator` waits for it).
   */
  settled?(): Promise<QueryResult[]>
  /** Frees what was built for the session (approval queue, gate, task list), after the session's tools. */
  release?(): Promise<void> | void
}

/** Where a live session's files are. */
export interface SessionPaths {
  projectDataDir: string
  transcriptPath: string
}

/**
 * One open session: the parts built for it first, then the session over them, and the lock on its
 * transcript. The manager keeps one per id and ends it with {@link closeLiveSession}, the one place
 * a live session is disposed.
 */
export interface LiveSession<P extends SessionParts = SessionParts> {
  readonly parts: P
  readonly session: Session
  /** Lets go of the transcript's lock (see store/session-lock). */
  readonly unlock: () => Promise<void>
}

/** Builds a live session bottom-up: `parts` are already built; the session is made over them. */
export function openLiveSession<P extends SessionParts>(
  id: { sessionId: string; projectPath: string },
  parts: P,
  paths: SessionPaths,
  unlock: () => Promise<void>,
  seed?: SessionSeed,
): LiveSession<P> {
  const session = new Session(id.sessionId, id.projectPath, { ...parts.environment, ...paths }, seed)
  return { parts, session, unlock }
}

/**
 * Ends a live session in order: its turn and tools (the session), then its parts, then the lock.
 * Contract: the lock is let go even when disposing failed.
 */
export async function closeLiveSession(live: LiveSession): Promise<void> {
  try {
    await live.session.dispose()
    await live.parts.release?.()
  } finally {
    await live.unlock()
  }
}

import { useCallback, useEffect, useState } from 'react'
import { useProjects } from '../features/projects/store'
import { sessionOnScreen, useSessionOnScreen } from '../state/session'
import { newSessionInChat, openSessionInChat, showStartedSessionInChat } from './session-glue'
import { restoreWorkspace, saveWorkspace } from './workspace-memory'

/** Sessions created a moment ago whose project is opening: shown as they are, not resumed (they have no transcript yet). */
const started = new Set<string>()

/** Which session each open project shows, and the ways to change it. */
export interface ProjectSessions {
  /** The session the chat shows for each open project (so switching tabs brings it back). */
  byProject: Readonly<Record<string, string | null>>
  /** The session of the project on screen. */
  active: string | null
  openSession(sessionId: string, projectPath: string): void
  /** Shows a session just created in another folder (a new worktree session: nothing to resume yet). */
  openStartedSession(sessionId: string, projectPath: string): void
  newSession(): void
  /** Why the last switch failed (shown until dismissed). */
  error: string | null
  dismissError(): void
}

/**
 * Keeps the chat and the project tabs in step: remembers the chat's session per project, brings it
 * back when its tab returns, and opens sessions found anywhere (another project's opens that
 * project first).
 */
export function useProjectSessions(currentPath: string | undefined): ProjectSessions {
  const open = useProjects((state) => state.open)
  const chatProject = useSessionOnScreen((state) => state.projectPath)
  const chatSession = useSessionOnScreen((state) => state.sessionId)
  const [byProject, setByProject] = useState<Record<string, string | null>>({})
  const [error, setError] = useState<string | null>(null)

  // After a page reload: the projects, their sessions and their shells come back; then kept.
  useEffect(() => {
    void restoreWorkspace((sessions) => setByProject((all) => ({ ...sessions, ...all })))
  }, [])
  useEffect(() => saveWorkspace(byProject), [byProject])

  // Remember which session the chat shows for its project (a new one appears on the first prompt).
  useEffect(() => {
    if (chatProject)
      setByProject((all) => (all[chatProject] === chatSession ? all : { ...all, [chatProject]: chatSession }))
  }, [chatProject, chatSession])

  // Coming back to a project tab brings its session back into the chat.
  useEffect(() => {
    if (!currentPath) return
    const remembered = byProject[currentPath]
    if (remembered && started.delete(remembered)) showStartedSessionInChat(currentPath, remembered)
    else if (remembered && sessionOnScreen().sessionId !== remembered)
      void openSessionInChat(currentPath, remembered).then(setError)
    // Only on a project switch; `byProject` changes on every new session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentPath])

  const openSession = useCallback(
    (sessionId: string, projectPath: string) => {
      if (projectPath === currentPath) return void openSessionInChat(projectPath, sessionId).then(setError)
      // Another project's session: open that project, and the effect above brings the session in.
      setByProject((all) => ({ ...all, [projectPath]: sessionId }))
      void open(projectPath)
    },
    [currentPath, open],
  )
  const openStartedSession = useCallback(
    (sessionId: string, projectPath: string) => {
      if (projectPath === currentPath) return showStartedSessionInChat(projectPath, sessionId)
      started.add(sessionId)
      setByProject((all) => ({ ...all, [projectPath]: sessionId }))
      void open(projectPath)
    },
    [currentPath, open],
  )
  const newSession = useCallback(() => {
    if (currentPath) newSessionInChat(currentPath)
  }, [currentPath])
  const dismissError = useCallback(() => setError(null), [])

  return {
    byProject,
    active: currentPath ? (byProject[currentPath] ?? null) : null,
    openSession,
    openStartedSession,
    newSession,
    error,
    dismissError,
  }
}

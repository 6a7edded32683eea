import { create } from 'zustand'

/**
 * The session on screen: the project the chat shows and its session (null until the first prompt
 * creates one). Written by the chat, which creates and leaves sessions, and by the shell's glue
 * when it opens one; read by every feature that follows "the session on screen" (the files
 * revision, the project tabs' memory, the chat pane). It used to be kept by the chat alone and
 * copied out by each reader.
 */
export interface SessionOnScreen {
  projectPath: string | null
  sessionId: string | null
}

export const useSessionOnScreen = create<SessionOnScreen>()(() => ({ projectPath: null, sessionId: null }))

/** Puts `sessionId` of `projectPath` on screen (null: a new conversation, not created yet). */
export function showSession(projectPath: string | null, sessionId: string | null): void {
  const now = useSessionOnScreen.getState()
  if (now.projectPath !== projectPath || now.sessionId !== sessionId) useSessionOnScreen.setState({ projectPath, sessionId })
}

/** The session on screen now (for code outside React). */
export function sessionOnScreen(): SessionOnScreen {
  return useSessionOnScreen.getState()
}

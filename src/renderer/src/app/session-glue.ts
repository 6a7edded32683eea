import { api } from '../api'
import { fetchSessionHistory } from '../api/session-history'
import { emptyTranscript, isRunning, reduce } from '../features/chat/reducer'
import { useChat } from '../features/chat/store'
import { sessionOnScreen, showSession } from '../state/session'
import { loadRecording } from '../features/timeline/recording'
import { clearTimeline, showStoredTimeline } from '../features/timeline/store'
import { historyToReplay } from '../lib/history-replay'

/**
 * The shell's glue between the sessions sidebar and the chat (features never import each other):
 * resuming a session puts its stored history into the chat, and a new session empties it.
 */

/** Resumes `sessionId` and shows its history in the chat; returns an error message or null. */
export async function openSessionInChat(projectPath: string, sessionId: string): Promise<string | null> {
  const resumed = await api.invoke('session.resume', { sessionId })
  if (!resumed.ok) return `Could not open the session: ${resumed.error.message}`
  // Left for the Agent terminal too, which shows the same session next (one parse of the transcript).
  const history = await fetchSessionHistory(sessionId)
  if (!history.ok) return `Could not load the session's history: ${history.error.message}`
  const transcript = historyToReplay(history.value.events).reduce(reduce, emptyTranscript)
  showSession(projectPath, sessionId)
  useChat.setState({ transcript, sending: false, stopping: false, error: null })
  // The timeline needs the subagents' transcripts too: drawn when they are read, the chat does not wait.
  clearTimeline()
  void loadRecording(sessionId, history.value).then(
    (recording) => showStoredTimeline(sessionId, recording),
    () => undefined,
  )
  return null
}

/**
 * Shows a session created a moment ago (a new worktree session): it has no history yet, and a
 * resume would find no transcript to read, so the chat simply starts on it, empty.
 */
export function showStartedSessionInChat(projectPath: string, sessionId: string): void {
  showSession(projectPath, sessionId)
  clearTimeline()
  useChat.setState({ transcript: emptyTranscript, sending: false, stopping: false, error: null })
}

/** Starts over in the chat: the next prompt creates a new session. */
export function newSessionInChat(projectPath: string): void {
  const { sessionId } = sessionOnScreen()
  if (sessionId && isRunning(useChat.getState().transcript)) void api.invoke('session.abort', { sessionId })
  showSession(projectPath, null)
  clearTimeline()
  useChat.setState({
    transcript: emptyTranscript,
    sending: false,
    stopping: false,
    error: null,
  })
}

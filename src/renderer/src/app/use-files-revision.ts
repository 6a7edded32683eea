import { useEffect, useState } from 'react'
import { api } from '../api'
import { useChat } from '../features/chat/store'

/**
 * A number that goes up whenever the agent of the chat's session may have changed files (a tool
 * or a turn ended), so the file tree and the session list know to look again.
 */
export function useFilesRevision(): number {
  const [revision, setRevision] = useState(0)
  useEffect(
    () =>
      api.on('agent.event', (event) => {
        if (event.sessionId === useChat.getState().sessionId && (event.type === 'tool_end' || event.type === 'turn_end'))
          setRevision((value) => value + 1)
      }),
    [],
  )
  return revision
}

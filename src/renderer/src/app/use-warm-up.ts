import { useEffect } from 'react'
import { loadHighlighter } from '../lib/markdown/highlighter'
import { loadTerminalView } from '../features/terminal/TerminalsPanel'

/**
 * Fetches the chunks the window will want soon — the terminal view and the code highlighter — in
 * the first idle moment after the first paint: they cost the first paint nothing, and opening a
 * project or reading a reply with code does not wait for them (nor parse them mid-stream).
 * Monaco is warmed separately, once a chat is on screen (`ApprovalPanel`).
 */
export function useWarmUp(): void {
  useEffect(() => {
    const id = requestIdleCallback(
      () => {
        loadTerminalView().catch(() => undefined) // LazyBoundary reports it if the terminal needs it.
        void loadHighlighter()
      },
      { timeout: 3000 },
    )
    return () => cancelIdleCallback(id)
  }, [])
}

import { useEffect } from 'react'
import { loadHighlighter } from '../lib/markdown/highlighter'
import { loadTerminalView } from '../features/terminal/TerminalsPanel'
import type { View } from './shell'

/**
 * Fetches the chunks the window will want soon — the terminal view, the code highlighter and the
 * dialogs that ask for it (`preload`: the context view) — in the first idle moment after the first
 * paint: they cost the first paint nothing, and opening a project, reading a reply with code or
 * clicking the context meter does not wait for them (nor parse them mid-stream).
 * Monaco is warmed separately, once a chat is on screen (`ApprovalPanel`).
 */
export function useWarmUp(views: readonly View[]): void {
  useEffect(() => {
    const id = requestIdleCallback(
      () => {
        // A failed fetch is tried again, and reported by LazyBoundary, when the view is opened.
        loadTerminalView().catch(() => undefined)
        void loadHighlighter()
        for (const view of views) if (view.placement === 'dialog') view.preload?.().catch(() => undefined)
      },
      { timeout: 3000 },
    )
    return () => cancelIdleCallback(id)
  }, [views])
}

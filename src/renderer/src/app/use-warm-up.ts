import { useEffect } from 'react'
import { loadHighlighter } from '../lib/markdown/highlighter'
import { loadTerminalView } from '../features/terminal/TerminalsPanel'
import type { View } from './shell'

/**
 * Fetches the chunks the window will want soon — the workspace, the terminal view and the code
 * highlighter — in the first idle moments after the first paint: they cost the first paint
 * nothing, and opening a project or reading a reply with code does not wait for them (nor parse
 * them mid-stream). Monaco is fetched separately, once a chat is on screen (`ApprovalPanel`).
 */
export function useWarmUp(workspace: () => Promise<void>): void {
  useEffect(() => {
    // One idle callback each, one after the other: together they were one long task (~70 ms at
    // load average 9, bench/startup-window.ts), each is a short one.
    const steps = [
      () => void workspace().catch(() => undefined), // LazyBoundary reports it if a project needs it.
      () => void loadTerminalView().catch(() => undefined), // LazyBoundary reports it if the terminal needs it.
      () => void loadHighlighter(),
      // No number formatter warm-up: the window's start formats no number through ICU any more
      // (lib/group-digits.ts), and setting the formatter up was one native call of 15–40 ms.
    ]
    let id = 0
    const next = (index: number): void => {
      id = requestIdleCallback(
        () => {
          steps[index]!()
          if (index + 1 < steps.length) next(index + 1)
        },
        { timeout: 3000 },
      )
    }
    next(0)
    return () => cancelIdleCallback(id)
  }, [workspace])
}

/**
 * Runs the dialogs' `warm` in an idle moment after the first paint, and again when another project
 * comes on screen: a dialog's first open then waits neither for its chunk nor for the disk.
 */
export function useWarmViews(views: readonly View[], projectPath: string | null): void {
  useEffect(() => {
    const id = requestIdleCallback(
      () => {
        for (const view of views) if (view.placement === 'dialog') view.warm?.(projectPath)
      },
      { timeout: 3000 },
    )
    return () => cancelIdleCallback(id)
  }, [views, projectPath])
}

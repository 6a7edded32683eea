import type { HLJSApi } from 'highlight.js'

/**
 * highlight.js with its common languages, fetched the first time a reply has a code block (it is
 * a quarter of what the conversation would otherwise load before first paint). Until it arrives,
 * code shows as plain text; then every block with code renders once more, coloured.
 */
let highlighter: HLJSApi | undefined
let loading: Promise<void> | undefined
const listeners = new Set<() => void>()

/** The highlighter, if it has arrived (starts fetching it otherwise). */
export function highlighterOrLoad(): HLJSApi | undefined {
  if (!highlighter) void loadHighlighter()
  return highlighter
}

/** Fetches the highlighter (once); resolves when it is ready. A failed fetch is tried again next time. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('highlight.js/lib/common').then(
    (module) => {
      highlighter = module.default
      for (const listener of [...listeners]) listener()
    },
    (error: unknown) => {
      loading = undefined
      console.error('Code highlighting could not load; code stays plain.', error)
    },
  )
  return loading
}

/** Whether code can be highlighted now (for `useSyncExternalStore`). */
export function highlighterReady(): boolean {
  return highlighter !== undefined
}

/** Calls `listener` when the highlighter arrives. */
export function onHighlighterReady(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Claude Code's suffix for "this model with the 1M-token context window" (`sonnet[1m]`). */
export const ONE_MILLION_SUFFIX = /\[1m\]$/i

/**
 * The context window of a model, in tokens: 1M for the `[1m]` variants (the only names the request
 * sends the 1M-window beta for), 200k otherwise. The main side uses it for compaction thresholds, the renderer for the status bar's
 * meter; a session may override it (`SOUS_CONTEXT_WINDOW`), and then its events say so.
 */
export function contextWindowOf(model: string | undefined): number {
  return model && ONE_MILLION_SUFFIX.test(model.trim()) ? 1_000_000 : 200_000
}

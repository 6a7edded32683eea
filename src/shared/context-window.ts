/**
 * The context window of a model, in tokens: 1M for the `[1m]` variants (and `-1m` names), 200k
 * otherwise. The main side uses it for compaction thresholds, the renderer for the status bar's
 * meter; a session may override it (`SOUS_CONTEXT_WINDOW`), and then its events say so.
 */
export function contextWindowOf(model: string | undefined): number {
  return model && /\[1m\]|-1m\b/i.test(model) ? 1_000_000 : 200_000
}

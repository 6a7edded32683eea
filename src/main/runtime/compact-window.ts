import { contextWindowOf } from '../../shared/context-window'
import { contextWindowFromEnv } from '../compaction/settings'

/**
 * The window a session's compaction works to, when it is not the model's own: `SOUS_CONTEXT_WINDOW`
 * first (tests and benchmarks), then Claude Code's `autoCompactWindow` setting — never more than
 * the model really takes, so a large setting cannot put compaction past the point of overflow.
 * Undefined means the model's window.
 */
export function compactWindow(model: string | undefined, env: NodeJS.ProcessEnv, setting: number | undefined): number | undefined {
  const fromEnv = contextWindowFromEnv(env)
  if (fromEnv !== undefined) return fromEnv
  return setting === undefined ? undefined : Math.min(setting, contextWindowOf(model))
}

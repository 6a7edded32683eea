import { ONE_MILLION_SUFFIX } from '../../../shared/context-window'

/** The model aliases agent files and the Agent tool use, as Claude Code names them. */
export type ModelAlias = 'sonnet' | 'opus' | 'haiku'

/** What each alias means unless the environment says otherwise. */
export const DEFAULT_ALIAS_MODELS: Readonly<Record<ModelAlias, string>> = {
  sonnet: 'claude-sonnet-4-6',
  opus: 'claude-opus-4-6',
  haiku: 'claude-haiku-4-5',
}

/** Claude Code's variables for pinning an alias to a model (a gateway's names, a dated id). */
const ALIAS_VARIABLES: Readonly<Record<ModelAlias, string>> = {
  sonnet: 'ANTHROPIC_DEFAULT_SONNET_MODEL',
  opus: 'ANTHROPIC_DEFAULT_OPUS_MODEL',
  haiku: 'ANTHROPIC_DEFAULT_HAIKU_MODEL',
}

/**
 * The model id for a name: an alias (`sonnet`, `opus`, `haiku`, any case) becomes the model the
 * environment pins it to, or the default; anything else is taken as a model id. A `[1m]` suffix
 * survives (`sonnet[1m]` → `claude-sonnet-4-6[1m]`): it sets the window compaction works to, and
 * the model service turns it into the API's terms (the id without it, plus the 1M-window beta).
 */
export function resolveModelName(name: string, env: Record<string, string | undefined> = {}): string {
  const trimmed = name.trim()
  const suffix = ONE_MILLION_SUFFIX.exec(trimmed)?.[0] ?? ''
  const alias = trimmed.slice(0, trimmed.length - suffix.length).toLowerCase()
  if (!(alias in DEFAULT_ALIAS_MODELS)) return trimmed
  const key = alias as ModelAlias
  return (env[ALIAS_VARIABLES[key]]?.trim() || DEFAULT_ALIAS_MODELS[key]) + suffix
}

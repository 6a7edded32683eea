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
 * environment pins it to, or the default; anything else is taken as a model id.
 */
export function resolveModelName(name: string, env: Record<string, string | undefined> = {}): string {
  const alias = name.trim().toLowerCase()
  if (!(alias in DEFAULT_ALIAS_MODELS)) return name.trim()
  const key = alias as ModelAlias
  return env[ALIAS_VARIABLES[key]]?.trim() || DEFAULT_ALIAS_MODELS[key]
}

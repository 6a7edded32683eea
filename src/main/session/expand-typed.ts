import type { PromptExpansion, SessionEnvironment, Toolset } from './session-types'

/**
 * What a typed prompt becomes before the model sees it (`/name …`: a custom command, a skill, an
 * MCP prompt). The session's tools are loaded only for a prompt that starts with `/`. Anything that
 * goes wrong is an `error` the user sees, never a throw.
 */
export async function expandTyped(env: Pick<SessionEnvironment, 'expandPrompt'>, text: string, loadToolset: () => Promise<Toolset>, signal: AbortSignal): Promise<PromptExpansion> {
  if (!env.expandPrompt) return { kind: 'none' }
  try {
    const toolset = text.trimStart().startsWith('/') ? await loadToolset() : { tools: [] }
    return await env.expandPrompt(text, toolset, signal)
  } catch (error) {
    return { kind: 'error', name: text.split(/\s/)[0] ?? text, message: `The command could not be expanded: ${error instanceof Error ? error.message : String(error)}` }
  }
}

import type { CanUseTool } from '../main/engine/types'
import type { PermissionMode } from './print-args'

/** A call refused in headless mode, as Claude Code's JSON output lists it. */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: unknown
}

/** Tools that only change files in the project, which `acceptEdits` lets through. */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'NotebookEdit'])

/**
 * The headless permission rule until governance lands; replace this one function to change it.
 * Nobody can be asked in `-p` mode, so "ask" becomes a denial the result reports:
 * - `bypassPermissions`: everything runs;
 * - `acceptEdits`: read-only calls and file edits run;
 * - `default` and `plan`: only read-only calls run.
 */
export function headlessPermission(mode: PermissionMode, denials: PermissionDenial[]): CanUseTool {
  return async (tool, input, toolUseId) => {
    if (mode === 'bypassPermissions') return { behavior: 'allow' }
    let readOnly = false
    try {
      readOnly = tool.isReadOnly(input)
    } catch {
      readOnly = false
    }
    if (readOnly) return { behavior: 'allow' }
    if (mode === 'acceptEdits' && EDIT_TOOLS.has(tool.name)) return { behavior: 'allow' }
    denials.push({ tool_name: tool.name, tool_use_id: toolUseId, tool_input: input })
    const hint = mode === 'plan' ? 'plan mode allows only read-only tools' : `it needs approval, and nobody can approve in headless mode (permission mode: ${mode})`
    return { behavior: 'deny', message: `${tool.name} was not run because ${hint}.` }
  }
}

import { analyzeBash } from '../bash/analyze'
import type { BashAnalysis } from '../bash/types'
import { hostOf } from '../rules/domain'
import { EDIT_TOOLS, READ_TOOLS } from './match'
import { resolveUserPath } from '../paths'

/** What a tool call touches, as far as permissions care. */
export type Subject =
  | { kind: 'bash'; command: string; analysis: BashAnalysis; disableSandbox: boolean }
  | { kind: 'read'; path: string }
  | { kind: 'edit'; path: string }
  | { kind: 'fetch'; url: string; host?: string }
  | { kind: 'other' }

/** Extracts the subject of a call from Claude Code's input field names. */
export async function subjectOf(
  toolName: string,
  input: Record<string, unknown>,
  where: { cwd: string; projectRoot: string; home: string; additionalDirectories: string[] },
): Promise<Subject> {
  const str = (k: string): string | undefined => (typeof input[k] === 'string' ? (input[k] as string) : undefined)
  if (toolName === 'Bash') {
    const command = str('command') ?? ''
    const analysis = await analyzeBash(command, { cwd: where.cwd, projectRoot: where.projectRoot, additionalDirectories: where.additionalDirectories, home: where.home })
    return { kind: 'bash', command, analysis, disableSandbox: input.dangerouslyDisableSandbox === true }
  }
  if (READ_TOOLS.has(toolName)) {
    const p = str('file_path') ?? str('notebook_path') ?? str('path') ?? where.cwd
    return { kind: 'read', path: resolveUserPath(p, where.cwd, where.home) }
  }
  if (EDIT_TOOLS.has(toolName)) {
    const p = str('file_path') ?? str('notebook_path') ?? ''
    // No target: not an edit we can place, so it falls to ask (never to an acceptEdits allow).
    if (p.trim() === '') return { kind: 'other' }
    return { kind: 'edit', path: resolveUserPath(p, where.cwd, where.home) }
  }
  if (toolName === 'WebFetch') {
    const url = str('url') ?? ''
    return { kind: 'fetch', url, host: hostOf(url) }
  }
  return { kind: 'other' }
}

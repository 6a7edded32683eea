import { resolve } from 'node:path'
import picomatch from 'picomatch'
import { analyzeBash } from '../bash/analyzer'
import type { BashAnalysis } from '../bash/types'
import { placeOf, type Place } from '../paths/place'
import { realPathOf } from '../paths/real-path'
import { hostOf } from '../rules/domain'
import { EDIT_TOOLS, READ_TOOLS } from './match'

/** What a tool call touches, as far as permissions care. */
export type Subject =
  | { kind: 'bash'; command: string; analysis: BashAnalysis; disableSandbox: boolean }
  | { kind: 'read'; place: Place }
  | { kind: 'edit'; place: Place }
  | { kind: 'fetch'; url: string; host?: string }
  | { kind: 'other' }

/** Where a call runs. */
export interface SubjectWhere {
  cwd: string
  projectRoot: string
  home: string
  additionalDirectories: string[]
}

/** Extracts the subject of a call from Claude Code's input field names. */
export async function subjectOf(toolName: string, input: Record<string, unknown>, where: SubjectWhere): Promise<Subject> {
  const text = (key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined)
  if (toolName === 'Bash') {
    const command = text('command') ?? ''
    const analysis = await analyzeBash(command, { cwd: where.cwd, projectRoot: where.projectRoot, additionalDirectories: where.additionalDirectories, home: where.home })
    return { kind: 'bash', command, analysis, disableSandbox: input.dangerouslyDisableSandbox === true }
  }
  if (toolName === 'Glob') return { kind: 'read', place: globBase(text('pattern') ?? '', text('path'), where) }
  if (READ_TOOLS.has(toolName)) {
    const path = text('file_path') ?? text('notebook_path') ?? text('path') ?? where.cwd
    return { kind: 'read', place: placeOf(path, where.cwd, where.home) }
  }
  if (EDIT_TOOLS.has(toolName)) {
    const path = text('file_path') ?? text('notebook_path') ?? ''
    // No target: not an edit we can place, so it falls to ask (never to an acceptEdits allow).
    if (path.trim() === '') return { kind: 'other' }
    return { kind: 'edit', place: placeOf(path, where.cwd, where.home) }
  }
  if (toolName === 'WebFetch') {
    const url = text('url') ?? ''
    return { kind: 'fetch', url, host: hostOf(url) }
  }
  return { kind: 'other' }
}

/**
 * The folder a Glob call lists: its `path` joined with the pattern's literal start (`../../x/*`
 * and `/abs/*` reach outside whatever `path` says). A `..` inside the glob part climbs out of
 * wherever the glob went, so each glob segment counts as one level down and each `..` as one up:
 * the result is the highest folder the pattern can reach.
 */
function globBase(pattern: string, path: string | undefined, where: SubjectWhere): Place {
  const root = placeOf(path ?? where.cwd, where.cwd, where.home).path
  const expanded = pattern === '~' || pattern.startsWith('~/') ? `${where.home}${pattern.slice(1)}` : pattern
  const scan = picomatch.scan(expanded)
  const literal = scan.base === '' ? '.' : scan.base
  const rest = scan.glob.split('/').filter((segment) => segment !== '')
  let climb = 0
  let lowest = 0
  for (const segment of rest) {
    climb += segment === '..' ? -1 : segment === '.' ? 0 : 1
    lowest = Math.min(lowest, climb)
  }
  const reach = [literal, ...Array.from({ length: -lowest }, () => '..')].join('/')
  return { path: resolve(root, reach), real: realPathOf(reach, root) }
}

import type { PermissionMode } from '../../src/main/governance/types'

/** What a call must get. The corpus is about the `allow` column: nothing may be allowed that should not be. */
export type Expected = 'allow' | 'deny' | 'ask'

/**
 * One call of the adversarial corpus. `input` is a Bash command or a tool input; `$ROOT`, `$OUTSIDE`
 * and `$HOME` in its strings stand for the fixture's folders. `why` says why that outcome is the
 * right one (for a refusal: what the call would do if it ran unreviewed).
 */
export interface CorpusCase {
  tool: string
  input: Record<string, unknown> | string
  expected: Expected
  mode: PermissionMode
  why: string
}

/** Cases of one class of attack (or of what must keep working next to it). */
export interface CorpusClass {
  name: string
  cases: CorpusCase[]
}

/** Builds a class; `why` is the default reason of cases that give none. */
export function corpusClass(name: string, why: string, cases: Array<Omit<CorpusCase, 'why' | 'mode'> & { why?: string; mode?: PermissionMode }>): CorpusClass {
  return { name, cases: cases.map((c) => ({ ...c, mode: c.mode ?? 'default', why: c.why ?? why })) }
}

/** A Bash case. */
export function bash(command: string, expected: Expected, why?: string, mode?: PermissionMode): Omit<CorpusCase, 'why' | 'mode'> & { why?: string; mode?: PermissionMode } {
  return { tool: 'Bash', input: command, expected, ...(why ? { why } : {}), ...(mode ? { mode } : {}) }
}

/** A tool case. */
export function tool(name: string, input: Record<string, unknown>, expected: Expected, why?: string, mode?: PermissionMode): Omit<CorpusCase, 'why' | 'mode'> & { why?: string; mode?: PermissionMode } {
  return { tool: name, input, expected, ...(why ? { why } : {}), ...(mode ? { mode } : {}) }
}

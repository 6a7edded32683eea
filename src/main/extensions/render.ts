import { substituteArguments } from './arguments'
import type { PromptTemplate, SkillDefinition } from './types'

/** What rendering may do beyond text: both go through the session's permission gate. */
export interface RenderCapabilities {
  /**
   * Runs one injected command (`` !`cmd` `` or a ```` ```! ```` block) as the Bash tool would, but
   * only if the permission check says allow outright: nothing prompts. `denied` aborts the render.
   */
  runShell(command: string, signal: AbortSignal): Promise<{ ok: true; output: string } | { ok: false; denied: boolean; message: string }>
  /** Reads an `@path` include if the permission check allows reading it; undefined when it is not a file. */
  readFile(path: string, signal: AbortSignal): Promise<{ ok: true; path: string; text: string } | { ok: false; message: string } | undefined>
}

/** What a render knows about its surroundings. */
export interface RenderContext {
  args: string
  sessionId: string
  projectDir: string
  signal: AbortSignal
}

/** Longest included file, in characters. */
const MAX_INCLUDE_CHARS = 100_000
const INLINE_SHELL = /(^|\s)!`([^`\n]+)`/g
const BLOCK_SHELL = /^```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*$/gm
const INCLUDE = /(^|\s)@([^\s`'"()<>]+)/g

/**
 * Renders a skill or command body for the model: `${CLAUDE_*}` placeholders, then arguments, then
 * injected shell commands (in order; outputs are inserted as plain text and never re-scanned), then
 * `@path` includes appended as attachments. Any injected command that is not allowed or fails aborts
 * the whole render with Claude Code's message; an include that is not allowed is left out with a note.
 */
export async function renderTemplate(template: PromptTemplate | SkillDefinition, context: RenderContext, capabilities: RenderCapabilities): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  let text = template.body
    .replaceAll('${CLAUDE_SESSION_ID}', context.sessionId)
    .replaceAll('${CLAUDE_PROJECT_DIR}', context.projectDir)
  if ('dir' in template) text = text.replaceAll('${CLAUDE_SKILL_DIR}', template.dir)
  text = substituteArguments(text, context.args, template.argumentNames)

  const shell = await injectShell(text, context.signal, capabilities)
  if (!shell.ok) return shell
  const includes = await collectIncludes(shell.text, context.signal, capabilities)
  return { ok: true, text: includes.length > 0 ? `${shell.text.replace(/\s+$/, '')}\n\n${includes.join('\n\n')}` : shell.text }
}

async function injectShell(text: string, signal: AbortSignal, capabilities: RenderCapabilities): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  const found: Array<{ start: number; end: number; command: string; pattern: string }> = []
  for (const match of text.matchAll(BLOCK_SHELL)) {
    found.push({ start: match.index, end: match.index + match[0].length, command: match[1]!, pattern: match[0] })
  }
  for (const match of text.matchAll(INLINE_SHELL)) {
    const start = match.index + match[1]!.length
    if (found.some((block) => start >= block.start && start < block.end)) continue
    found.push({ start, end: match.index + match[0].length, command: match[2]!, pattern: `!\`${match[2]}\`` })
  }
  if (found.length === 0) return { ok: true, text }
  found.sort((a, b) => a.start - b.start)
  const outputs: string[] = []
  for (const item of found) {
    const result = await capabilities.runShell(item.command, signal)
    if (!result.ok) {
      const what = result.denied ? 'Shell command permission check failed' : 'Shell command failed'
      return { ok: false, error: `${what} for pattern "${item.pattern}": ${result.message}` }
    }
    outputs.push(result.output.replace(/\s+$/, ''))
  }
  // One pass over the original text: outputs are never scanned for further placeholders.
  let out = ''
  let at = 0
  found.forEach((item, index) => {
    out += text.slice(at, item.start) + outputs[index]
    at = item.end
  })
  return { ok: true, text: out + text.slice(at) }
}

async function collectIncludes(text: string, signal: AbortSignal, capabilities: RenderCapabilities): Promise<string[]> {
  const attachments: string[] = []
  const seen = new Set<string>()
  for (const match of text.matchAll(INCLUDE)) {
    const path = match[2]!.replace(/[.,;:!?]+$/, '')
    if (seen.has(path)) continue
    seen.add(path)
    const read = await capabilities.readFile(path, signal)
    if (!read) continue
    if (!read.ok) {
      attachments.push(`[@${path} was not included: ${read.message}]`)
      continue
    }
    const body = read.text.length > MAX_INCLUDE_CHARS ? `${read.text.slice(0, MAX_INCLUDE_CHARS)}\n[… cut at ${MAX_INCLUDE_CHARS.toLocaleString('en-US')} characters]` : read.text
    attachments.push(`<file path="${read.path}">\n${body}\n</file>`)
  }
  return attachments
}

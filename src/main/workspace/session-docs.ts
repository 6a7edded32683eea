import { createTwoFilesPatch } from 'diff'
import type { FileChange, SessionMatch } from '../../shared/ipc/contract'
import { AppError } from '../../shared/ipc/result'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { findTranscriptFile, listSessions, loadStoredTranscript, summarize } from '../store/session-index'
import { loadTranscript, transcriptPath, type LoadedTranscript } from '../store/transcript'

/**
 * What the workspace reads out of stored transcripts without a running agent: text search across
 * sessions, a Markdown export, and the files a session changed with their combined diff.
 */

const MAX_MATCHES = 100
const SNIPPET_RADIUS = 60

/** Sessions whose title, prompts or replies contain `query` (case-insensitive), newest first. */
export async function searchSessions(
  home: string,
  query: string,
  projectPath?: string,
): Promise<SessionMatch[]> {
  const needle = query.trim().toLowerCase()
  const summaries = await listSessions(home, projectPath)
  const matches: SessionMatch[] = []
  for (const summary of summaries) {
    if (matches.length >= MAX_MATCHES) break
    if (summary.title.toLowerCase().includes(needle)) {
      matches.push({ summary, snippet: summary.title })
      continue
    }
    const loaded = await loadTranscript(transcriptPath(home, summary.projectPath, summary.sessionId), { projectPath: summary.projectPath })
    if (!loaded) continue
    for (const text of searchableTexts(loaded.events)) {
      const at = text.toLowerCase().indexOf(needle)
      if (at !== -1) {
        matches.push({ summary, snippet: snippetAround(text, at, needle.length) })
        break
      }
    }
  }
  return matches
}

/**
 * The texts of a session a person would search: prompts, replies, and what each tool call was
 * asked to do (its command, path, pattern… — the string fields of its input, once per call).
 */
export function searchableTexts(events: readonly AgentEvent[]): string[] {
  const texts: string[] = []
  const seenCalls = new Set<string>()
  for (const event of events) {
    if (event.parentToolUseId) continue
    if (event.type === 'turn_start') texts.push(event.prompt)
    else if (event.type === 'assistant_message') texts.push(event.text)
    else if (event.type === 'tool_state' && event.input !== undefined && !seenCalls.has(event.toolUseId)) {
      seenCalls.add(event.toolUseId)
      texts.push([event.name, ...inputStrings(event.input)].join(' '))
    }
  }
  return texts
}

/** The string values in a tool input, nested ones included (an edit's `old_string`, a MultiEdit's list). */
function inputStrings(input: unknown): string[] {
  if (typeof input === 'string') return [input]
  if (Array.isArray(input)) return input.flatMap(inputStrings)
  if (typeof input === 'object' && input !== null) return Object.values(input).flatMap(inputStrings)
  return []
}

/** One line of context around a match, with ellipses where it was cut. */
export function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_RADIUS)
  const end = Math.min(text.length, at + length + SNIPPET_RADIUS)
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim()
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`
}

/** Loads one session by id (any project); NOT_FOUND when there is none. */
export async function loadSession(home: string, sessionId: string): Promise<LoadedTranscript> {
  const file = await findTranscriptFile(home, sessionId)
  const loaded = file ? await loadStoredTranscript(file) : undefined
  if (!loaded) throw new AppError('NOT_FOUND', `No session ${sessionId}.`)
  return loaded
}

/** A session as Markdown: prompts, replies, and each tool call with its result. */
export function sessionMarkdown(loaded: LoadedTranscript): { fileName: string; markdown: string } {
  const summary = summarize(loaded)
  // A session never renamed and without stored messages is named by its first prompt.
  const firstPrompt = loaded.events.find((event) => event.type === 'turn_start')
  if (!loaded.title && summary.title === 'New session' && firstPrompt?.type === 'turn_start')
    summary.title = firstPrompt.prompt.split('\n')[0]!.slice(0, 80)
  const lines: string[] = [
    `# ${summary.title}`,
    '',
    `- Project: \`${summary.projectPath}\``,
    `- Session: \`${summary.sessionId}\``,
    `- Started: ${summary.createdAt}`,
    '',
  ]
  const inputs = new Map<string, unknown>()
  for (const event of loaded.events) {
    if (event.parentToolUseId) continue
    switch (event.type) {
      case 'turn_start':
        lines.push('## You', '', event.prompt, '')
        break
      case 'assistant_message':
        if (event.text.trim()) lines.push('## Sous', '', event.text, '')
        break
      case 'tool_state':
        if (event.input !== undefined) inputs.set(event.toolUseId, event.input)
        break
      case 'tool_end': {
        const input = inputs.get(event.toolUseId)
        lines.push(`### ${event.name}${event.isError ? ' (failed)' : ''}`, '')
        if (input !== undefined) lines.push(fence(JSON.stringify(input, null, 2), 'json'), '')
        lines.push(
          fence(event.content.length > 4000 ? `${event.content.slice(0, 4000)}\n…` : event.content, 'text'),
          '',
        )
        break
      }
      case 'turn_end':
        if (event.reason !== 'completed')
          lines.push(`_Turn ended: ${event.reason}${event.message ? ` — ${event.message}` : ''}_`, '')
        break
      default:
        break
    }
  }
  const slug =
    summary.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'session'
  return { fileName: `${slug}.md`, markdown: `${lines.join('\n').trimEnd()}\n` }
}

/** A fenced block that no backtick run inside the text can close. */
function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${lang}\n${text}\n${ticks}`
}

/**
 * Files changed by Edit and Write in a session, each with one unified diff from its content
 * before the first change to after the last (the tools record both in their result details).
 */
export function sessionChanges(events: readonly AgentEvent[], projectPath: string): FileChange[] {
  const files = new Map<string, { before: string; after: string; created: boolean }>()
  for (const event of events) {
    if (event.type !== 'tool_end' || event.isError) continue
    const details = event.details as
      { filePath?: unknown; before?: unknown; after?: unknown; created?: unknown } | undefined
    if (
      !details ||
      typeof details.filePath !== 'string' ||
      typeof details.before !== 'string' ||
      typeof details.after !== 'string'
    )
      continue
    const seen = files.get(details.filePath)
    if (seen) seen.after = details.after
    else
      files.set(details.filePath, {
        before: details.before,
        after: details.after,
        created: details.created === true,
      })
  }
  return [...files].map(([path, change]) => {
    const shown = path.startsWith(`${projectPath}/`) ? path.slice(projectPath.length + 1) : path
    return {
      path,
      created: change.created,
      // The library opens its patch with a line of `=`; a unified diff starts at its `---` header.
      patch: createTwoFilesPatch(
        change.created ? '/dev/null' : `a/${shown}`,
        `b/${shown}`,
        change.before,
        change.after,
        undefined,
        undefined,
        { context: 3 },
      ).replace(/^=+\n/, ''),
    }
  })
}

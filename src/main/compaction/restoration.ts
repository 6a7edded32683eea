import { readFile, stat } from 'node:fs/promises'
import type { Message } from '../services/model/types'
import type { TaskListAccess } from '../tools/types'
import type { FileStateCache } from '../tools/file-state'
import { decodeText, looksBinary, numberLines } from '../tools/file-codec'
import { resultContentText } from './conversation'
import { estimateTextTokens } from './tokens'

/**
 * What comes back after a summarizing compaction, so the model does not have to rediscover it:
 * the files it read most recently, the active plan, the skills it loaded, the open tasks, and what
 * reached it as reminders (subfolder instructions, MCP servers' instructions, recalled memories). Each
 * comes from a small provider; a part the session does not have contributes nothing, and a
 * provider that fails is skipped (compaction never fails because of restoration).
 */

/** One restored piece, sent as a text block after the summary. */
export interface RestoredPart {
  kind: 'file' | 'plan' | 'skill' | 'tasks' | 'instructions' | 'mcp' | 'memory'
  /** What it is, for the context view and logs (a path, a skill name). */
  label: string
  text: string
}

/** What providers get: the limits and the conversation that was summarized. */
export interface RestoreContext {
  /** The conversation before compaction (what the summary covers). */
  summarized: readonly Message[]
  /** Messages kept after the summary as they are (a provider skips what they already show). */
  kept: readonly Message[]
  limits: { files: number; tokens: number; tokensPerFile: number }
  signal: AbortSignal
}

/** A source of restored parts. */
export interface RestorationProvider {
  readonly name: string
  restore(context: RestoreContext): Promise<RestoredPart[]>
}

/** Runs every provider, in order; a failing provider contributes nothing. */
export async function restore(providers: readonly RestorationProvider[], context: RestoreContext): Promise<RestoredPart[]> {
  const parts = await Promise.all(providers.map((provider) => provider.restore(context).catch(() => [] as RestoredPart[])))
  return parts.flat()
}

/**
 * The files the agent saw most recently, re-read from disk as they are now: at most
 * `limits.files`, `limits.tokensPerFile` each (longer files are cut with a note) and
 * `limits.tokens` together. Files the kept messages already show, files the rules now keep from
 * being read, binary files and files that are gone are skipped. Each file re-read is recorded as
 * seen, since the model now has its current content.
 */
export function recentFilesProvider(fileState: FileStateCache, isReadDenied?: (path: string) => boolean): RestorationProvider {
  return {
    name: 'recent files',
    async restore({ kept, limits }) {
      const shown = readPathsIn(kept)
      const parts: RestoredPart[] = []
      let budget = limits.tokens
      for (const path of fileState.recent()) {
        if (parts.length >= limits.files || budget <= 0) break
        if (shown.has(path) || isReadDenied?.(path)) continue
        const read = await readForRestore(path, Math.min(limits.tokensPerFile, budget) * 4)
        if (!read) continue
        fileState.record(path, read.bytes, read.mtimeMs)
        const text = `Contents of ${path} as it is now (re-read after the conversation was compacted${read.cut ? `; lines 1-${read.lines} of ${read.total}, Read the rest if you need it` : ''}):\n${read.numbered}`
        budget -= estimateTextTokens(text)
        parts.push({ kind: 'file', label: path, text })
      }
      return parts
    },
  }
}

/** The plan of this session (plan mode writes it), when there is one. */
export function planProvider(planFile: () => string | undefined, maxTokens = 8_000): RestorationProvider {
  return {
    name: 'plan',
    async restore() {
      const path = planFile()
      if (!path) return []
      const text = await readFile(path, 'utf8').catch(() => undefined)
      if (!text?.trim()) return []
      return [{ kind: 'plan', label: path, text: `The plan for this session (saved at ${path}):\n\n${cut(text.trim(), maxTokens * 4)}` }]
    },
  }
}

/**
 * The skills loaded in the summarized conversation, found where the Skill tool put them (its
 * results, `<skill name="…">…</skill>`): the newest copy of each, at most `maxTokens` each.
 */
export function skillsProvider(maxTokens = 5_000, maxSkills = 5): RestorationProvider {
  return {
    name: 'skills',
    async restore({ summarized, kept }) {
      const inKept = new Set(skillsIn(kept).keys())
      const found = skillsIn(summarized)
      return [...found.entries()]
        .filter(([name]) => !inKept.has(name))
        .slice(-maxSkills)
        .map(([name, body]) => ({ kind: 'skill' as const, label: name, text: `The skill "${name}" was loaded earlier in this conversation; its instructions still apply:\n\n${cut(body, maxTokens * 4)}` }))
    },
  }
}

/** The open tasks of the session's task list (pending and in progress). */
export function tasksProvider(tasks: TaskListAccess, maxLines = 100): RestorationProvider {
  return {
    name: 'tasks',
    async restore() {
      const { tasks: all } = await tasks.store.list()
      const open = all.filter((task) => task.status !== 'completed')
      if (open.length === 0) return []
      const lines = open.slice(0, maxLines).map((task) => `#${task.id} [${task.status}] ${task.subject}${task.owner ? ` (owner: ${task.owner})` : ''}`)
      const more = open.length > maxLines ? `\n… and ${open.length - maxLines} more (TaskList shows them all)` : ''
      return [{ kind: 'tasks', label: tasks.listId, text: `Open tasks in the task list "${tasks.listId}":\n${lines.join('\n')}${more}` }]
    },
  }
}

/**
 * What reached the model as reminders and would be lost with the messages that carried them
 * (subfolder CLAUDE.md files, MCP servers' instructions, recalled memories): `parts` says what
 * the session holds now; each is cut at `maxTokens`.
 */
export function remindedProvider(name: string, kind: RestoredPart['kind'], parts: () => Array<{ label: string; text: string }> | Promise<Array<{ label: string; text: string }>>, maxTokens = 10_000): RestorationProvider {
  return {
    name,
    async restore() {
      return (await parts()).filter((part) => part.text.trim() !== '').map((part) => ({ kind, label: part.label, text: cut(part.text, maxTokens * 4) }))
    },
  }
}

/** How a restored block starts (the context view sizes restoration by it). */
export const RESTORED_PREFIX = '<system-reminder>\nRestored after compaction.'

/** The restored parts as the text blocks that follow the summary. */
export function restoredText(parts: readonly RestoredPart[]): string[] {
  return parts.map((part) => `${RESTORED_PREFIX} ${part.text}\n</system-reminder>`)
}

async function readForRestore(path: string, maxChars: number): Promise<{ numbered: string; bytes: Buffer; mtimeMs: number; cut: boolean; lines: number; total: number } | undefined> {
  try {
    const info = await stat(path)
    if (!info.isFile()) return undefined
    const bytes = await readFile(path)
    if (looksBinary(bytes)) return undefined
    const { text } = decodeText(bytes)
    const all = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
    let used = 0
    let lines = 0
    for (const line of all) {
      used += line.length + 8
      if (used > maxChars) break
      lines++
    }
    if (lines === 0) return undefined
    return { numbered: numberLines(all.slice(0, lines), 1), bytes, mtimeMs: info.mtimeMs, cut: lines < all.length, lines, total: all.length }
  } catch {
    return undefined
  }
}

/** Paths of the Read calls in some messages. */
function readPathsIn(messages: readonly Message[]): Set<string> {
  const paths = new Set<string>()
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    for (const block of message.content) {
      const path = block.type === 'tool_use' && block.name === 'Read' ? (block.input as { file_path?: unknown }).file_path : undefined
      if (typeof path === 'string') paths.add(path)
    }
  }
  return paths
}

/** Skill name → body, from the Skill tool's successful results, newest last. */
function skillsIn(messages: readonly Message[]): Map<string, string> {
  const found = new Map<string, string>()
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue
    for (const block of message.content) {
      if (block.type !== 'tool_result' || block.is_error) continue
      const match = /^<skill name="([^"]+)"[^>]*>\n?([\s\S]*?)\n?<\/skill>$/.exec(resultContentText(block.content).trim())
      if (!match) continue
      found.delete(match[1]!)
      found.set(match[1]!, match[2]!)
    }
  }
  return found
}

function cut(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n… (cut: ${text.length - maxChars} more characters)`
}

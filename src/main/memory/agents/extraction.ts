import { realpath } from 'node:fs/promises'
import { isAbsolute, relative, resolve } from 'node:path'
import type { Usage } from '../../../shared/protocol/agent-event'
import { MemoryScope } from '../../../shared/memory'
import { ReminderQueue } from '../../context/reminders'
import { query } from '../../engine/query'
import { runToEnd } from '../../engine/run'
import type { CanUseTool, QueryParams } from '../../engine/types'
import type { Message } from '../../services/model/types'
import type { AgentWrite } from '../agent-write'
import { extractionInstruction, type ExtractionPromptInput } from './extraction.prompt'

/**
 * The extraction agent: after a turn completes, the same loop runs once more over the same system
 * prompt, the same tools and the same messages — so the request reads that prefix from the prompt
 * cache — followed by one instruction: say what from the user's newest messages is worth
 * remembering, as JSON. It may read the memory folders and nothing else; it writes nothing itself
 * (Sous applies its answer, see `agent-write.ts`). Its events go nowhere near the chat.
 */

/** The turn's request, as the extraction reuses it. */
export type ConversationPrefix = Pick<QueryParams, 'system' | 'tools' | 'toolContext' | 'model' | 'modelName' | 'sessionId' | 'cwd' | 'projectRoot' | 'projectDataDir' | 'reasoning' | 'maxTokens' | 'toolSearch'> & {
  /** The conversation after the turn (ending with the assistant's last reply). */
  messages: Message[]
}

export interface ExtractionResult {
  writes: AgentWrite[]
  usage: Usage
  costUsd: number
  model: string
  /** Why nothing could be read from the answer (the run failed, or the reply was not the JSON). */
  problem?: string
}

/** Requests the extraction may make (a few reads, then the answer). */
const MAX_REQUESTS = 4

/** Runs the extraction agent. Contract: never throws; failures come back as `problem`. */
export async function runExtraction(prefix: ConversationPrefix, prompt: ExtractionPromptInput, signal: AbortSignal): Promise<ExtractionResult> {
  const instruction: Message = { role: 'user', content: [{ type: 'text', text: extractionInstruction(prompt) }] }
  const run = query({
    ...prefix,
    messages: [...prefix.messages, instruction],
    maxTurns: MAX_REQUESTS,
    signal,
    agentId: 'memory',
    canUseTool: memoryReadsOnly(prompt.folders.map((folder) => folder.dir)),
    // Its own queue: the session's news is for the main agent's next request, not for this one.
    reminders: new ReminderQueue(),
  })
  const result = await runToEnd(run)
  const base = { usage: result.usage, costUsd: result.costUsd, model: prefix.modelName }
  if (result.reason !== 'completed') return { ...base, writes: [], problem: result.message ?? `the run ended with ${result.reason}` }
  const parsed = parseExtraction(result.resultText)
  return { ...base, ...parsed }
}

/** Reads the agent's answer: `{"memories": [...]}`; items that are not memories are skipped. */
export function parseExtraction(text: string): { writes: AgentWrite[]; problem?: string } {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  let data: unknown
  try {
    data = start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : undefined
  } catch {
    data = undefined
  }
  const items = (data as { memories?: unknown } | undefined)?.memories
  if (!Array.isArray(items)) return { writes: [], problem: 'the answer was not the expected JSON' }
  const writes: AgentWrite[] = []
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue
    const record = item as Record<string, unknown>
    const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined)
    const [name, description, type, body] = [text('name'), text('description'), text('type'), text('body')]
    if (name === undefined || description === undefined || type === undefined || body === undefined) continue
    const scope = MemoryScope.safeParse(record['scope'] ?? 'project')
    if (!scope.success) continue
    const file = text('file')
    writes.push({ scope: scope.data, name, description, type, body, ...(file !== undefined && file.trim() !== '' && { file: file.trim() }) })
  }
  return { writes }
}

/**
 * The extraction's permission check: Read, Glob and Grep inside the memory folders (by real
 * path); everything else is refused with a message that steers it back to answering.
 */
export function memoryReadsOnly(folders: readonly string[]): CanUseTool {
  const roots = Promise.all(folders.map((folder) => realpath(folder).catch(() => resolve(folder))))
  return async (tool, input) => {
    const refuse = { behavior: 'deny' as const, message: 'During memory extraction only the memory folders may be read (Read, Glob, Grep with their path). Reply with the JSON answer.' }
    if (!['Read', 'Glob', 'Grep'].includes(tool.name)) return refuse
    const record = (input ?? {}) as Record<string, unknown>
    const target = record['file_path'] ?? record['path']
    if (typeof target !== 'string' || !isAbsolute(target)) return refuse
    const real = await realpath(target).catch(() => resolve(target))
    const inside = (await roots).some((root) => {
      const rel = relative(root, real)
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
    })
    return inside ? { behavior: 'allow' } : refuse
  }
}

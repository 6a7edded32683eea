import type { CompactionTrigger } from '../../shared/protocol/compaction'
import type { Message, UserBlock } from '../services/model/types'
import { assistantCutAtOrAfter, hasToolResults } from './conversation'
import { restore, restoredText, type RestorationProvider, type RestoredPart } from './restoration'
import { requestSummary } from './summary'
import { CONTINUE_NOTE, summaryMessageText } from './summary.prompt'
import { messagesTokens } from './tokens'
import type { CompactionHooks, RequestShape } from './types'

/** How one summarizing compaction should go. */
export interface SummarizeOptions {
  trigger: CompactionTrigger
  instructions?: string
  /** What the summary request sends (the conversation, or a projection of it that fits). */
  source: readonly Message[]
  /** The newest messages kept as they are after the summary, if they fit in this many tokens. */
  tailTokens: number
  maxTokens: number
  streamRetries: number
  /** Re-issues with fewer old rounds when the summary request itself is too long. */
  shrinkRetries: number
  restoreLimits: { files: number; tokens: number; tokensPerFile: number }
}

/** What the session gives every summarizing compaction. */
export interface SummarizeDeps {
  request: RequestShape
  restoration: readonly RestorationProvider[]
  hooks?: CompactionHooks
  transcriptPath?: string
}

/** How it ended; `waitedMs` is the time spent on the model and hooks (not the harness's own). */
export type Summarized =
  | { status: 'done'; messages: Message[]; summary: string; restored: RestoredPart[]; summaryMs: number; waitedMs: number; detail: string }
  | { status: 'failed' | 'blocked'; detail: string; summaryMs: number; waitedMs: number; aborted?: boolean }

/**
 * Summarizes the conversation: PreCompact hooks (which may block), the summary request (see
 * summary.ts; retried when its stream breaks, shortened when it is itself too long), then the new
 * conversation — one user message with the summary and what the providers restore, followed by the
 * newest messages kept as they are — and PostCompact hooks. Never throws.
 */
export async function summarizeConversation(messages: readonly Message[], options: SummarizeOptions, deps: SummarizeDeps): Promise<Summarized> {
  let waitedMs = 0
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    try {
      return await work()
    } finally {
      waitedMs += performance.now() - started
    }
  }
  const instructions = options.instructions?.trim() ?? ''
  const pre = deps.hooks ? await timed(() => deps.hooks!.preCompact(options.trigger, instructions)) : {}
  if (pre.blocked !== undefined) return { status: 'blocked', detail: `A PreCompact hook blocked the compaction: ${pre.blocked}`, summaryMs: 0, waitedMs }

  let source = [...options.source]
  let summaryMs = 0
  let outcome = await timed(() => requestSummary({ ...deps.request, messages: source, instructions, maxTokens: options.maxTokens, streamRetries: options.streamRetries }))
  summaryMs += outcome.ms
  for (let shrink = 0; !outcome.ok && outcome.reason === 'prompt_too_long' && shrink < options.shrinkRetries; shrink++) {
    const shorter = withoutOldestRounds(source, 0.3)
    if (shorter.length >= source.length) break
    source = shorter
    outcome = await timed(() => requestSummary({ ...deps.request, messages: source, instructions, maxTokens: options.maxTokens, streamRetries: options.streamRetries }))
    summaryMs += outcome.ms
  }
  if (!outcome.ok) {
    const why = outcome.reason === 'prompt_too_long' ? `the summary request itself was too long (${outcome.message})` : outcome.message
    return { status: 'failed', detail: `The summary could not be made: ${why}`, summaryMs, waitedMs, ...(outcome.reason === 'aborted' && { aborted: true }) }
  }

  const kept = tailToKeep(messages, options.tailTokens)
  const restored = await timed(() => restore(deps.restoration, { summarized: messages, kept, limits: options.restoreLimits, signal: deps.request.signal }))
  const start = deps.hooks?.sessionStart ? await timed(() => deps.hooks!.sessionStart!()) : {}
  const blocks: UserBlock[] = [{ type: 'text', text: summaryMessageText(outcome.summary, deps.transcriptPath) }]
  for (const text of restoredText(restored)) blocks.push({ type: 'text', text })
  if (start.additionalContext?.trim()) blocks.push({ type: 'text', text: `<system-reminder>\n${start.additionalContext.trim()}\n</system-reminder>` })
  // Without a kept tail the summary is the last message: the model needs to be told to go on.
  if (kept.length === 0 && endsMidTurn(messages)) blocks.push({ type: 'text', text: CONTINUE_NOTE })
  const compacted: Message[] = [{ role: 'user', content: blocks }, ...kept]
  if (deps.hooks) await timed(() => deps.hooks!.postCompact(options.trigger, outcome.summary))
  const detail = `summarized ${messages.length} messages${restored.length ? `; restored ${describeRestored(restored)}` : ''}${kept.length ? `; kept the newest ${kept.length} as they are` : ''}`
  return { status: 'done', messages: compacted, summary: outcome.summary, restored, summaryMs, waitedMs, detail }
}

/**
 * The newest messages to keep verbatim: from the last assistant message (at a safe cut) to the
 * end, when that fits in `tokens`; otherwise only a trailing prompt of the user's (never lost).
 */
export function tailToKeep(messages: readonly Message[], tokens: number): Message[] {
  let start: number | undefined
  for (let index = messages.length - 1; index >= 1; index--) {
    if (messages[index]!.role === 'assistant') {
      start = assistantCutAtOrAfter(messages, index) === index ? index : undefined
      break
    }
  }
  if (start !== undefined && messagesTokens(messages.slice(start)) <= tokens) return messages.slice(start)
  const last = messages.at(-1)
  return last && last.role === 'user' && !hasToolResults(last) ? [last] : []
}

/** The conversation without the oldest `share` of its rounds (the first prompt stays). */
export function withoutOldestRounds(messages: readonly Message[], share: number): Message[] {
  const cut = assistantCutAtOrAfter(messages, Math.max(2, Math.floor(messages.length * share)))
  if (cut === undefined || cut <= 1) return [...messages]
  return [messages[0]!, ...messages.slice(cut)]
}

/** The last message is tool results (or a continuation): the loop is in the middle of a turn. */
function endsMidTurn(messages: readonly Message[]): boolean {
  const last = messages.at(-1)
  return !!last && last.role === 'user' && hasToolResults(last)
}

function describeRestored(parts: readonly RestoredPart[]): string {
  const counts = new Map<string, number>()
  for (const part of parts) counts.set(part.kind, (counts.get(part.kind) ?? 0) + 1)
  const names: Record<RestoredPart['kind'], [string, string]> = {
    file: ['file', 'files'],
    plan: ['plan', 'plans'],
    skill: ['skill', 'skills'],
    tasks: ['task list', 'task lists'],
    instructions: ['subfolder instruction file', 'subfolder instruction files'],
    mcp: ['MCP server’s instructions', 'MCP servers’ instructions'],
    memory: ['recalled memory', 'recalled memories'],
  }
  return [...counts.entries()].map(([kind, count]) => `${count} ${names[kind as RestoredPart['kind']][count === 1 ? 0 : 1]}`).join(', ')
}

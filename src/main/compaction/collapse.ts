import type { AssistantBlock, Message, UserBlock } from '../services/model/types'
import { assistantCutAtOrAfter, markerBlock, recoveryHint, resultContentText, toolNamesById, withMarker } from './conversation'
import { REFETCHABLE_TOOLS } from './micro'
import { estimateTextTokens } from './tokens'

/** How the marker of dropped rounds starts. */
export const COLLAPSE_MARKER = '[Collapsed:'
/** Tool inputs longer than this (as JSON) are stubbed in collapsed messages. */
const LONG_INPUT_CHARS = 1_000

/** What one projection did, for the compaction record when it changed. */
export interface Projection {
  send: Message[]
  /** The watermarks moved (a new collapse); `false` when the projection only repeated an earlier one. */
  advanced: boolean
  detail: string
}

/** How the projection measures a candidate (the session's calibrated count, system and tools included). */
export type Measure = (messages: readonly Message[]) => number

/**
 * Collapse: a read-time projection of the conversation, used when it reaches 90 % of the window
 * (`collapseAt`). The transcript and the session keep every message; only what is sent shrinks.
 *
 * - From `collapseAt`: the tool results and long tool inputs of the oldest messages become stubs
 *   (`[collapsed: …]`), oldest first, until the request is under `target`.
 * - From `hardCollapseAt` (95 %), or when stubs are not enough: whole old rounds are left out
 *   after the first prompt, with one marker saying how many.
 *
 * The newest round is never touched. Watermarks only move forward (until {@link reset}), and each
 * collapsed message is built once and reused, so between collapses the request prefix is
 * byte-identical and keeps being read from the prompt cache.
 */
export class CollapseProjection {
  /** Messages before this index are stubbed. */
  private stubbedThrough = 0
  /** Messages in [1, droppedThrough) are left out. */
  private droppedThrough = 0
  private readonly stubs = new WeakMap<Message, Message>()

  /** `transcriptPath`: named in stubs and markers, so the model knows where to look things up. */
  constructor(private readonly transcriptPath?: string) {}

  /** The working list was replaced (a summary, a snip): start over. */
  reset(): void {
    this.stubbedThrough = 0
    this.droppedThrough = 0
  }

  /** Where the watermarks are now, for {@link rewind}. */
  mark(): { stubbed: number; dropped: number } {
    return { stubbed: this.stubbedThrough, dropped: this.droppedThrough }
  }

  /** Puts the watermarks back where {@link mark} found them (a collapse that would not have helped). */
  rewind(mark: { stubbed: number; dropped: number }): void {
    this.stubbedThrough = mark.stubbed
    this.droppedThrough = mark.dropped
  }

  /** Whether any collapse is in force. */
  get active(): boolean {
    return this.stubbedThrough > 0 || this.droppedThrough > 0
  }

  /**
   * What to send for `messages`. `tokens` is the size of the unprojected request; collapse starts
   * at `collapseAt`, drops rounds from `hardCollapseAt`, and aims for `target`.
   */
  project(messages: readonly Message[], tokens: number, measure: Measure, levels: { collapseAt: number; hardCollapseAt: number; target: number }): Projection {
    const before = { stubbed: this.stubbedThrough, dropped: this.droppedThrough }
    const lastRound = lastRoundStart(messages)
    let send = this.build(messages)
    let size = this.active ? measure(send) : tokens
    if (size >= levels.collapseAt) {
      // Stub one more round at a time until the request is down to the target.
      while (size > levels.target && this.stubbedThrough < lastRound) {
        this.stubbedThrough = Math.min(assistantCutAtOrAfter(messages, this.stubbedThrough + 1) ?? lastRound, lastRound)
        send = this.build(messages)
        size = measure(send)
      }
    }
    if (size >= levels.hardCollapseAt) {
      // Still near the wall: leave out whole rounds after the first prompt.
      while (size > levels.target && Math.max(1, this.droppedThrough) < lastRound) {
        this.droppedThrough = Math.min(assistantCutAtOrAfter(messages, Math.max(1, this.droppedThrough) + 1) ?? lastRound, lastRound)
        send = this.build(messages)
        size = measure(send)
      }
    }
    const advanced = before.stubbed !== this.stubbedThrough || before.dropped !== this.droppedThrough
    const dropped = Math.max(0, this.droppedThrough - 1)
    const stubbed = Math.max(0, this.stubbedThrough - Math.max(1, this.droppedThrough))
    return { send, advanced, detail: `${stubbed} older messages sent as stubs${dropped ? `, ${dropped} left out` : ''} (the transcript keeps them)` }
  }

  private build(messages: readonly Message[]): Message[] {
    if (!this.active) return messages as Message[]
    const dropped = Math.max(1, this.droppedThrough)
    const head = messages[0]!
    const out: Message[] = []
    if (this.droppedThrough > 1 && head.role === 'user') {
      out.push(withMarker(head, COLLAPSE_MARKER, markerBlock(COLLAPSE_MARKER, `${this.droppedThrough - 1} earlier messages are left out of this request to fit the context window. ${recoveryHint(this.transcriptPath)}]`)))
    } else {
      out.push(this.stubbedThrough > 0 ? this.stub(head, new Map()) : head)
    }
    const names = this.stubbedThrough > dropped ? toolNamesById(messages) : new Map<string, string>()
    for (let index = this.droppedThrough > 1 ? dropped : 1; index < messages.length; index++) {
      const message = messages[index]!
      out.push(index < this.stubbedThrough ? this.stub(message, names) : message)
    }
    return out
  }

  /** A message with its tool results and long tool inputs stubbed; built once per message. */
  private stub(message: Message, names: Map<string, string>): Message {
    const known = this.stubs.get(message)
    if (known) return known
    let stubbed: Message
    if (message.role === 'user') {
      if (typeof message.content === 'string') return message
      const content: UserBlock[] = message.content.map((block) => {
        if (block.type !== 'tool_result') return block
        const text = resultContentText(block.content)
        const tool = names.get(block.tool_use_id) ?? 'tool'
        const back = REFETCHABLE_TOOLS.has(tool) ? `call ${tool} again if you need it` : `the session transcript${this.transcriptPath ? ` (${this.transcriptPath})` : ''} keeps it under tool_use_id ${block.tool_use_id}`
        return { ...block, content: `[collapsed: ${tool} result, about ${estimateTextTokens(text).toLocaleString('en-US')} tokens; ${back}]` }
      })
      stubbed = { role: 'user', content }
    } else {
      const content: AssistantBlock[] = message.content.map((block) => {
        if (block.type !== 'tool_use') return block
        const json = JSON.stringify(block.input ?? {})
        return json.length <= LONG_INPUT_CHARS ? block : { ...block, input: stubInput(block.input) }
      })
      stubbed = { role: 'assistant', content }
    }
    this.stubs.set(message, stubbed)
    return stubbed
  }
}

/** The start of the newest round: the last assistant message at a safe cut (never touched). */
function lastRoundStart(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 1; index--) {
    const message = messages[index]!
    // The round the next request continues: this assistant message and what follows it.
    if (message.role === 'assistant') return index
  }
  return messages.length
}

/** A tool input with its long string values replaced by their length. */
function stubInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { collapsed: true }
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key, typeof value === 'string' && value.length > 200 ? `[collapsed: ${value.length} characters]` : value]),
  )
}

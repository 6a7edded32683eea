import type { CompactionPreview, ContextBreakdown, ContextGroup, ContextItem } from '../../shared/ipc/context'
import { renderInstructionFile } from '../context/claude-md'
import type { SystemPrompt } from '../context/system-prompt'
import type { Message, ToolSchema } from '../services/model/types'
import { countNames, resultContentText, toolNamesById } from './conversation'
import type { ContextManager } from './manager'
import { microCompact } from './micro'
import { RESTORED_PREFIX } from './restoration'
import { summaryMessageText } from './summary.prompt'
import { estimateTextTokens, messageTokens } from './tokens'

/** What the context view is computed from. */
export interface InspectInput {
  sessionId: string
  model: string
  system: SystemPrompt
  tools: readonly ToolSchema[]
  /** MCP servers still connecting: listed, with no tokens until their tools arrive. */
  connecting?: readonly string[]
  messages: readonly Message[]
  manager: ContextManager
  /** Names of what a summary would restore (recent files, plan…). */
  restores: readonly string[]
}

const SUMMARY_START = summaryMessageText('', undefined).slice(0, 40)

/**
 * The context view's figures: every part of the next request sized in tokens (estimates scaled
 * by the session's calibration, so they add up to about the API's own count), what each
 * compaction layer would do next, and what compaction has done. Pure apart from reading the
 * manager's state; linear in the conversation's size.
 */
export function inspectContext(input: InspectInput): ContextBreakdown {
  const { manager, system } = input
  const settings = manager.settings
  const scale = (tokens: number) => manager.ledger.calibrated(tokens)
  const item = (label: string, text: string, detail?: string): ContextItem => ({ label, tokens: scale(estimateTextTokens(text)), ...(detail !== undefined && { detail }) })
  const groups: ContextGroup[] = [
    group('system', 'System prompt', [item('Static part (the same for every session)', system.staticText), item('Environment', system.parts.environment), ...(system.parts.git ? [item('Git status', system.parts.git)] : []), ...(system.parts.append ? [item('Appended text', system.parts.append)] : [])]),
    group('instructions', 'CLAUDE.md files', system.parts.instructions.map((file) => item(file.path, renderInstructionFile(file), file.importedBy ? `imported by ${file.importedBy}` : file.scope))),
    group('sections', 'Memory and other sections', system.parts.sections.map((section) => item(section.name, section.text, section.path))),
    group('tools', 'Tool schemas', toolItems(input.tools, input.connecting ?? [], scale)),
    group('messages', 'Messages', messageItems(input.messages, scale)),
  ]
  const total = manager.count(input.messages)
  return {
    sessionId: input.sessionId,
    model: input.model,
    window: settings.contextWindow,
    total,
    messageCount: input.messages.length,
    groups,
    thresholds: { micro: settings.microAt, autoCompact: settings.autoCompactAt, collapse: settings.collapseAt, hardCollapse: settings.hardCollapseAt, snipMessages: settings.snipAbove },
    next: preview(input, total),
    history: [...manager.history],
    autoCompactOff: manager.breakerOpen,
    notes: system.parts.instructionNotes,
  }
}

function group(id: ContextGroup['id'], label: string, items: ContextItem[]): ContextGroup {
  return { id, label, tokens: items.reduce((sum, entry) => sum + entry.tokens, 0), items }
}

/** Built-in tools together, then one item per MCP server (`mcp__<server>__<tool>`), then the servers still connecting. */
function toolItems(tools: readonly ToolSchema[], connecting: readonly string[], scale: (tokens: number) => number): ContextItem[] {
  const byServer = new Map<string, { tokens: number; count: number }>()
  for (const tool of tools) {
    const server = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(tool.name)?.[1]
    const key = server ? `MCP: ${server}` : 'Built-in tools'
    const entry = byServer.get(key) ?? { tokens: 0, count: 0 }
    entry.tokens += estimateTextTokens(JSON.stringify(tool))
    entry.count++
    byServer.set(key, entry)
  }
  const sized = [...byServer.entries()].map(([label, entry]) => ({ label, tokens: scale(entry.tokens), detail: `${entry.count} tool${entry.count === 1 ? '' : 's'}` }))
  const waiting = connecting.filter((server) => !byServer.has(`MCP: ${server}`)).map((server) => ({ label: `MCP: ${server}`, tokens: 0, detail: 'connecting…' }))
  return [...sized, ...waiting]
}

/** Messages by kind: prompts, reminders, summaries, replies, tool calls, and tool results per tool. */
function messageItems(messages: readonly Message[], scale: (tokens: number) => number): ContextItem[] {
  const names = toolNamesById(messages)
  const sizes = new Map<string, { tokens: number; count: number }>()
  const add = (label: string, tokens: number) => {
    const entry = sizes.get(label) ?? { tokens: 0, count: 0 }
    entry.tokens += tokens
    entry.count++
    sizes.set(label, entry)
  }
  for (const message of messages) {
    if (typeof message.content === 'string') {
      add('Your prompts', messageTokens(message))
      continue
    }
    for (const block of message.content) {
      const tokens = estimateTextTokens(JSON.stringify(block))
      if (block.type === 'tool_result') add(`Tool results: ${names.get(block.tool_use_id) ?? 'unknown tool'}`, estimateTextTokens(resultContentText(block.content)) + 8)
      else if (block.type === 'tool_use') add('Tool calls', tokens)
      else if (block.type === 'thinking' || block.type === 'redacted_thinking') add('Thinking', tokens)
      else if (block.type === 'image') add('Images', 1_600)
      else if (message.role === 'assistant') add('Assistant replies', tokens)
      else if (block.text.startsWith(SUMMARY_START)) add('Compaction summary', tokens)
      else if (block.text.startsWith(RESTORED_PREFIX)) add('Restored after compaction', tokens)
      else if (block.text.startsWith('<system-reminder>')) add('System reminders', tokens)
      else add('Your prompts', tokens)
    }
  }
  return [...sizes.entries()]
    .sort((a, b) => b[1].tokens - a[1].tokens)
    .map(([label, entry]) => ({ label, tokens: scale(entry.tokens), detail: `${entry.count} block${entry.count === 1 ? '' : 's'}` }))
}

/** What each layer would do next, in the order they run. */
function preview(input: InspectInput, total: number): CompactionPreview[] {
  const settings = input.manager.settings
  const messages = input.messages
  const micro = microCompact(messages, { keepRecent: settings.keepRecentResults, minChars: settings.minClearChars, saveAtLeast: Math.max(settings.microMinSavings, total - settings.microTo) })
  const pressure = total >= settings.pressureAt
  const percent = (tokens: number) => `${Math.round((tokens / settings.contextWindow) * 100)} %`
  const clearable = micro?.cleared ?? []
  const clearableTokens = clearable.reduce((sum, entry) => sum + entry.tokens, 0)
  const off = input.manager.breakerOpen
  return [
    {
      layer: 'snip',
      at: settings.snipAbove,
      unit: 'messages',
      due: messages.length > settings.snipAbove && pressure,
      summary: `Past ${settings.snipAbove} messages and ${percent(settings.pressureAt)} of the window, the middle of the conversation is removed, down to about ${settings.snipTo} (the first prompt and the newest messages stay; below ${percent(settings.pressureAt)} nothing is removed).`,
      items: [],
    },
    {
      layer: 'micro',
      at: settings.microAt,
      unit: 'tokens',
      due: pressure && total >= settings.microAt && clearableTokens >= settings.microMinSavings,
      summary: `${clearable.length
        ? `Would clear ${clearable.length} old results of re-fetchable tools (about ${clearableTokens.toLocaleString('en-US')} tokens), oldest first down to ${percent(settings.microTo)} of the window and keeping the newest ${settings.keepRecentResults}; in bulk from ${percent(settings.microAt)} once it saves at least ${settings.microMinSavings.toLocaleString('en-US')} tokens (or, past ${percent(settings.pressureAt)}, after ${Math.round(settings.idleMs / 60_000)} idle minutes).`
        : `Nothing to clear yet: only the newest ${settings.keepRecentResults} results of re-fetchable tools, short results and other tools' results are there.`} Once under token pressure, of two rounds in a row with Read, Grep or Glob results of ${settings.largeResultTokens.toLocaleString('en-US')} tokens or more only the newer is sent whole.`,
      items: clearable.length ? [countNames(clearable.map((entry) => entry.tool))] : [],
    },
    {
      layer: 'collapse',
      at: settings.collapseAt,
      unit: 'tokens',
      due: total >= settings.collapseAt,
      summary: `From ${percent(settings.collapseAt)} of the window older tool results are sent as stubs (down to ${percent(settings.collapseTarget)}), before any summary; only when no summary can be had, from ${percent(settings.hardCollapseAt)} old rounds are left out of the request. The session keeps every message.`,
      items: [],
    },
    {
      layer: 'auto',
      at: settings.autoCompactAt,
      unit: 'tokens',
      due: total >= settings.autoCompactAt && !off,
      summary: off
        ? 'Off for this session: it failed too many times in a row. /compact tries again.'
        : `A summary would replace the ${messages.length} messages (the newest round stays if small), then restore: ${input.restores.join(', ') || 'nothing'}.`,
      items: [],
    },
  ]
}

import { memo } from 'react'
import { isWaiting } from '../../state/approval-queue'
import { usePendingApprovals } from '../../state/approvals'
import type { Block } from './reducer'
import { RunningSummary } from './RunningSummary'
import { fileChangeOf, isRejected, resultLabel } from './tool-view'
import { webSearchCardOf } from './web-search-view'
import { WebSearchCard } from './WebSearchCard'

type ToolBlock = Extract<Block, { kind: 'tool' }>
/**
 * What the card shows: the call's own state, that it waits for the user (from the pending
 * approvals), or that the user rejected it (an answer, not a failure: labelled neutrally).
 */
type CardState = ToolBlock['state'] | 'awaiting_approval' | 'rejected'

const STATE_LABEL: Record<CardState, string> = {
  pending: 'Pending',
  awaiting_approval: 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  rejected: 'Rejected',
}

/** One tool call: name, what it was asked to do, where it is, and what came back. */
export const ToolCard = memo(function ToolCard({ tool }: { tool: ToolBlock }) {
  const waiting = usePendingApprovals((pending) => isWaiting(pending.queue, tool.toolUseId))
  const state: CardState =
    waiting && (tool.state === 'pending' || tool.state === 'running') ? 'awaiting_approval' : isRejected(tool.result) ? 'rejected' : tool.state
  const label = STATE_LABEL[state]
  // Summaries read "Edit /a/b.ts"; the card already names the tool.
  const detail = (tool.summary?.startsWith(`${tool.name} `) ? tool.summary.slice(tool.name.length + 1) : tool.summary) ?? describeInput(tool.input)
  const change = tool.result && !tool.result.isError ? fileChangeOf(tool.result.details) : undefined
  const search = tool.name === 'WebSearch' && tool.result && !tool.result.isError ? webSearchCardOf(tool.result.details) : undefined
  return (
    <article className={`tool-card tool-card--${state}`} aria-label={`Tool ${tool.name}: ${label}`} data-tool-use-id={tool.toolUseId} tabIndex={-1}>
      <header className="tool-card__header">
        <span className="tool-card__name">{tool.name}</span>
        {detail && <code className="tool-card__detail">{detail}</code>}
        {change && (
          <span className="tool-card__stat">
            <span className="diff-add">+{change.added}</span> <span className="diff-del">−{change.removed}</span>
          </span>
        )}
        <span className={`badge badge--${state}`}>{label}</span>
      </header>
      {tool.auto && (
        <p className={`tool-card__auto tool-card__auto--${tool.auto.decision}`} role="note" aria-label={`Auto mode ${tool.auto.decision === 'allow' ? 'allowed' : 'asked'}: ${tool.auto.reason}`}>
          <strong>{tool.auto.decision === 'allow' ? 'Auto mode allowed' : 'Auto mode asked you'}</strong>: {tool.auto.reason}
        </p>
      )}
      {tool.runningSummary && !tool.result && <RunningSummary toolName={tool.name} summary={tool.runningSummary} />}
      {tool.progress && !tool.result && <pre className="tool-card__output">{tool.progress}</pre>}
      {change && (
        <details className="tool-card__result">
          <summary>Diff</summary>
          <pre className="tool-card__diff" aria-label={`Diff of ${change.filePath}`}>
            {change.lines.map((line, index) => (
              <span key={index} className={`diff-line diff-line--${line.kind}`}>
                {line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : line.kind === 'ctx' ? ' ' : ''}
                {line.text}
                {'\n'}
              </span>
            ))}
            {change.cut > 0 && <span className="diff-line diff-line--hunk">… {change.cut} more lines</span>}
          </pre>
        </details>
      )}
      {search && <WebSearchCard card={search} />}
      {tool.result && (
        <details className="tool-card__result">
          <summary>{resultLabel(tool.name, tool.result.isError)}</summary>
          <pre className="tool-card__output">{tool.result.content}</pre>
        </details>
      )}
    </article>
  )
})

function describeInput(input: unknown): string | undefined {
  if (input === undefined || input === null) return undefined
  if (typeof input !== 'object') return String(input)
  // Most tools have one telling field; show it rather than a JSON blob.
  const record = input as Record<string, unknown>
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'description']) {
    if (typeof record[key] === 'string') return record[key]
  }
  const json = JSON.stringify(input)
  return json.length > 120 ? `${json.slice(0, 117)}…` : json
}

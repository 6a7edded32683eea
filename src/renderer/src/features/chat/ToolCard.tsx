import { memo } from 'react'
import type { Block } from './reducer'

type ToolBlock = Extract<Block, { kind: 'tool' }>

const STATE_LABEL: Record<ToolBlock['state'], string> = {
  pending: 'Pending',
  awaiting_approval: 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
}

/** One tool call: name, what it was asked to do, where it is, and what came back. */
export const ToolCard = memo(function ToolCard({ tool }: { tool: ToolBlock }) {
  const label = STATE_LABEL[tool.state]
  const detail = tool.summary ?? describeInput(tool.input)
  return (
    <article className={`tool-card tool-card--${tool.state}`} aria-label={`Tool ${tool.name}: ${label}`}>
      <header className="tool-card__header">
        <span className="tool-card__name">{tool.name}</span>
        {detail && <code className="tool-card__detail">{detail}</code>}
        <span className={`badge badge--${tool.state}`}>{label}</span>
      </header>
      {tool.progress && !tool.result && <pre className="tool-card__output">{tool.progress}</pre>}
      {tool.result && (
        <details className="tool-card__result">
          <summary>{tool.result.isError ? 'Error' : 'Result'}</summary>
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

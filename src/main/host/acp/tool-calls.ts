import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk'
import type { ApprovalPreview } from '../../../shared/ipc/approval'

/**
 * How a Sous tool call looks to an ACP client: its kind (the client's icon and grouping), a title,
 * the files it touches (the client's "follow along") and, for edits, the diff. Pure functions of
 * the tool's name, input and results, so a live turn and a replayed history draw the same cards.
 */

const KINDS: Readonly<Record<string, ToolKind>> = {
  Read: 'read',
  Edit: 'edit',
  Write: 'edit',
  NotebookEdit: 'edit',
  Glob: 'search',
  Grep: 'search',
  ToolSearch: 'search',
  Bash: 'execute',
  TaskOutput: 'execute',
  TaskStop: 'execute',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  EnterPlanMode: 'switch_mode',
  ExitPlanMode: 'switch_mode',
  TaskCreate: 'think',
  TaskUpdate: 'think',
  TaskList: 'think',
  TaskGet: 'think',
}

/** The ACP kind of a Sous tool (MCP tools and the rest: `other`). */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other'
}

/** A title for a tool call: the engine's one-line summary when it has one, else the name with its main argument. */
export function toolTitle(name: string, input: unknown, summary?: string): string {
  if (summary) return summary
  const args = record(input)
  const main = str(args['command']) ?? str(args['file_path']) ?? str(args['notebook_path']) ?? str(args['pattern']) ?? str(args['url']) ?? str(args['query']) ?? str(args['description'])
  return main ? `${name} ${oneLine(main)}` : name
}

/** The files a call reads or writes, as ACP locations (absolute paths, a line where the input names one). */
export function toolLocations(input: unknown): ToolCallLocation[] {
  const args = record(input)
  const path = str(args['file_path']) ?? str(args['notebook_path'])
  if (!path) return []
  const line = typeof args['offset'] === 'number' && args['offset'] > 0 ? Math.floor(args['offset']) : undefined
  return [{ path, ...(line !== undefined && { line }) }]
}

/** The diff an approval shows, as ACP diff content (empty for every other preview). */
export function previewContent(preview: ApprovalPreview | undefined): ToolCallContent[] {
  if (!preview) return []
  if (preview.kind === 'diff') return [{ type: 'diff', path: preview.filePath, oldText: preview.before === '' ? null : preview.before, newText: preview.after }]
  if (preview.kind === 'command') return [text(preview.description ? `${preview.command}\n\n${preview.description}` : preview.command)]
  if (preview.kind === 'plan') return [text(preview.plan)]
  if (preview.kind === 'text') return [text(preview.text)]
  if (preview.kind === 'url') return [text(preview.url)]
  if (preview.kind === 'path') return [text(`${preview.operation} ${preview.path}`)]
  return [text(preview.questions.map((q) => q.question).join('\n'))]
}

/**
 * What a finished call shows: the diff it made (Edit, Write: their `details` carry the file
 * before and after) followed by the text the model was given.
 */
export function resultContent(details: unknown, content: string): ToolCallContent[] {
  const parts: ToolCallContent[] = []
  const d = record(details)
  const path = str(d['filePath'])
  if (path && typeof d['before'] === 'string' && typeof d['after'] === 'string') {
    parts.push({ type: 'diff', path, oldText: d['before'] === '' && d['created'] === true ? null : d['before'], newText: d['after'] })
  }
  if (content) parts.push(text(content))
  return parts
}

function text(value: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: value } }
}

function oneLine(value: string): string {
  const line = value.split('\n')[0] ?? ''
  return line.length > 120 ? `${line.slice(0, 117)}…` : line
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

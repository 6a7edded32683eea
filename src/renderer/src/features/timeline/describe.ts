import type { ApprovalResolution } from '../../../../shared/ipc/contract'

/** How the timeline names its marks: their accessible names, the tip's line of files, the calls' one-line descriptions. */

const LABEL_CHARS = 80

/** What naming a mark needs of it (a `Mark` of `types.ts`). */
interface Named {
  kind: string
  label: string
  note?: string
  state: 'running' | 'done' | 'error'
  files: readonly string[]
}

/** A mark's accessible name: what it is and, unless it simply finished, how it stands. */
export function markName(mark: Named): string {
  const how = mark.note ?? (mark.state === 'running' ? 'running' : mark.state === 'error' ? 'failed' : undefined)
  return how ? `${mark.label} — ${how}` : mark.label
}

/** "Files changed: a.ts, b.ts", or that the events name none. */
export function filesLine(mark: Named): string {
  if (mark.files.length > 0) return `Files changed: ${mark.files.join(', ')}`
  return mark.kind === 'command' ? 'Files changed: not named by the command (see the checkpoints)' : 'No files changed'
}

/** "Bash: npm test", "Edit src/a.ts", "Grep export": the tool and its one telling field. */
export function describeCall(name: string, input: unknown, summary: string | undefined): string {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  // A command is named by itself, not by the description the model gave it.
  if (name === 'Bash' && typeof record['command'] === 'string') return `Bash: ${oneLine(record['command'])}`
  if (summary) return oneLine(summary.startsWith(`${name} `) || summary.startsWith(`${name}:`) ? summary : `${name} ${summary}`)
  for (const key of ['file_path', 'notebook_path', 'path', 'pattern', 'url', 'description']) {
    if (typeof record[key] === 'string') return `${name} ${oneLine(record[key])}`
  }
  return name
}

/** The files an edit tool's input names. */
export function filesOf(input: unknown): string[] {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  return ['file_path', 'notebook_path'].flatMap((key) => (typeof record[key] === 'string' ? [record[key]] : []))
}

export function mergeFiles(known: string[], more: string[]): string[] {
  const fresh = more.filter((file) => !known.includes(file))
  return fresh.length ? [...known, ...fresh] : known
}

/** A hook's stdin names the call it is about (`tool_use_id`) for the tool events. */
export function toolUseIdOf(input: string): string | undefined {
  const match = /"tool_use_id"\s*:\s*"([^"]+)"/.exec(input)
  return match?.[1]
}

export function outcomeWord(outcome: ApprovalResolution): string {
  switch (outcome) {
    case 'allowed_once':
      return 'allowed once'
    case 'allowed_session':
      return 'allowed for the session'
    case 'allowed_always':
      return 'always allowed'
    case 'rejected':
      return 'rejected'
    case 'aborted':
      return 'cancelled'
  }
}

export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line
}

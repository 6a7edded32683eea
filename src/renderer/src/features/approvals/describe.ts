import type { ApprovalRequested } from '../../../../shared/ipc/contract'

/**
 * One line for a notification or a queue entry: "Bash: npm test", "Edit: src/a.ts"; a subagent's
 * request is prefixed with its type: "Explore › Bash: npm test".
 */
export function describeRequest(request: ApprovalRequested): string {
  const line = describeCall(request)
  return request.agent ? `${request.agent.type} › ${line}` : line
}

function describeCall(request: ApprovalRequested): string {
  const preview = request.preview
  if (preview?.kind === 'command') return `${request.toolName}: ${preview.command}`
  if (preview?.kind === 'diff') return `${request.toolName}: ${preview.filePath}`
  if (preview?.kind === 'path') return `${request.toolName}: ${preview.path}`
  if (preview?.kind === 'url') return `${request.toolName}: ${preview.url}`
  const input = request.input as Record<string, unknown> | null
  for (const key of ['command', 'file_path', 'path', 'url']) {
    const value = input?.[key]
    if (typeof value === 'string') return `${request.toolName}: ${value}`
  }
  return request.toolName
}

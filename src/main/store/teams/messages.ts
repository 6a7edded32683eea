import { z } from 'zod'

/**
 * What a mailbox holds, as Claude Code 2.1.328 writes it (`inboxes/<name>.json`, a JSON array):
 * each entry is who sent it, its text, when, whether it was read, and the sender's colour and a
 * one-line summary. Structured messages (idle notices, permission asks, shutdown…) are JSON in
 * `text`, told apart by their `type` ({@link parseProtocolMessage}).
 */
export const InboxMessage = z.object({
  from: z.string(),
  text: z.string(),
  timestamp: z.string(),
  read: z.boolean().optional(),
  color: z.string().optional(),
  summary: z.string().optional(),
})
export type InboxMessage = z.infer<typeof InboxMessage>

const at = { timestamp: z.string() }

/** Every structured message of the design, by its `type` (Claude Code's field names). */
export const ProtocolMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('idle_notification'), from: z.string(), ...at, idleReason: z.enum(['available', 'interrupted', 'failed']).optional(), summary: z.string().optional(), completedTaskId: z.string().optional(), completedStatus: z.enum(['resolved', 'blocked', 'failed']).optional(), failureReason: z.string().optional(), result: z.string().optional() }),
  z.object({ type: z.literal('permission_request'), request_id: z.string().min(1), agent_id: z.string(), tool_name: z.string(), tool_use_id: z.string().optional(), description: z.string(), input: z.unknown(), permission_suggestions: z.array(z.unknown()).default([]), preview: z.unknown().optional(), explanation: z.unknown().optional() }),
  z.object({ type: z.literal('permission_response'), request_id: z.string().min(1), subtype: z.enum(['success', 'error']), tool_use_id: z.string().optional(), response: z.object({ updated_input: z.record(z.string(), z.unknown()).optional(), permission_updates: z.array(z.unknown()).optional() }).optional(), error: z.string().optional(), outcome: z.unknown().optional() }),
  z.object({ type: z.literal('plan_approval_request'), from: z.string(), ...at, planFilePath: z.string(), planContent: z.string(), requestId: z.string() }),
  z.object({ type: z.literal('plan_approval_response'), requestId: z.string(), approved: z.boolean(), feedback: z.string().optional(), ...at, permissionMode: z.string().optional() }),
  z.object({ type: z.literal('shutdown_request'), requestId: z.string(), from: z.string(), reason: z.string().optional(), ...at }),
  z.object({ type: z.literal('shutdown_approved'), requestId: z.string(), from: z.string(), ...at, backendType: z.string().optional() }),
  z.object({ type: z.literal('shutdown_rejected'), requestId: z.string(), from: z.string(), reason: z.string(), ...at }),
  z.object({ type: z.literal('task_assignment'), taskId: z.string(), subject: z.string(), description: z.string(), assignedBy: z.string(), ...at }),
  z.object({ type: z.literal('team_permission_update'), rules: z.array(z.string()).optional(), ...at }).passthrough(),
  z.object({ type: z.literal('mode_set_request'), mode: z.string(), from: z.string().optional() }).passthrough(),
  z.object({ type: z.literal('sandbox_permission_request'), requestId: z.string(), workerId: z.string(), workerName: z.string(), workerColor: z.string().optional(), hostPattern: z.object({ host: z.string() }), createdAt: z.number() }),
  z.object({ type: z.literal('sandbox_permission_response'), requestId: z.string(), host: z.string(), allow: z.boolean(), ...at }),
  z.object({ type: z.literal('teammate_terminated'), message: z.string() }),
])
export type ProtocolMessage = z.infer<typeof ProtocolMessage>
/** The `type` of a structured message, or `message` for plain text. */
export type MessageKind = ProtocolMessage['type'] | 'message'

/** The structured message in `text`, or undefined for plain text (or JSON of no known type). */
export function parseProtocolMessage(text: string): ProtocolMessage | undefined {
  if (!text.trimStart().startsWith('{')) return undefined
  try {
    const parsed = ProtocolMessage.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** What kind of message an entry is. */
export function kindOf(message: Pick<InboxMessage, 'text'>): MessageKind {
  return parseProtocolMessage(message.text)?.type ?? 'message'
}

/** Escapes a value for an XML-ish attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, ' ')
}

/**
 * One message as the recipient's model reads it, in Claude Code's frame:
 * `<teammate-message teammate_id="alice" color="blue" summary="…">text</teammate-message>`.
 */
export function teammateMessageBlock(message: InboxMessage): string {
  const color = message.color ? ` color="${attribute(message.color)}"` : ''
  const summary = message.summary ? ` summary="${attribute(message.summary)}"` : ''
  return `<teammate-message teammate_id="${attribute(message.from)}"${color}${summary}>\n${message.text}\n</teammate-message>`
}

/** A one-line description of a message for the desktop (its summary, its kind, or its first line). */
export function messageSummary(message: InboxMessage): string {
  const protocol = parseProtocolMessage(message.text)
  if (protocol) {
    switch (protocol.type) {
      case 'idle_notification':
        return `idle${protocol.idleReason ? ` (${protocol.idleReason})` : ''}${protocol.summary ? `: ${protocol.summary}` : ''}`
      case 'permission_request':
        return `asks to use ${protocol.tool_name}`
      case 'permission_response':
        return protocol.subtype === 'success' ? 'permission granted' : `permission denied${protocol.error ? `: ${protocol.error}` : ''}`
      case 'shutdown_request':
        return `shutdown request${protocol.reason ? `: ${protocol.reason}` : ''}`
      case 'shutdown_approved':
        return 'shutdown approved'
      case 'shutdown_rejected':
        return `shutdown rejected: ${protocol.reason}`
      case 'task_assignment':
        return `task #${protocol.taskId}: ${protocol.subject}`
      case 'plan_approval_request':
        return `plan for approval: ${(protocol.planContent.split('\n').find((line) => line.trim() !== '') ?? '').replace(/^#+\s*/, '').slice(0, 100)}`
      case 'plan_approval_response':
        return protocol.approved ? `plan approved${protocol.feedback ? `: ${protocol.feedback}` : ''}` : `plan rejected${protocol.feedback ? `: ${protocol.feedback}` : ''}`
      default:
        return protocol.type.replace(/_/g, ' ')
    }
  }
  const first = message.summary ?? message.text.split('\n', 1)[0] ?? ''
  return first.length > 120 ? `${first.slice(0, 119)}…` : first
}

import type { Task } from '../../store/tasks/task'
import { LEAD_NAME } from '../../store/teams/team-file'

/** Claude Code 2.1.328's TEAMMATE_SYSTEM_PROMPT_ADDENDUM, word for word: appended to every teammate's system prompt. */
export const TEAMMATE_SYSTEM_PROMPT_ADDENDUM = `
# Agent Teammate Communication

IMPORTANT: You are running as an agent in a team. To communicate with anyone on your team, use the SendMessage tool with \`to: "<name>"\` to send messages to specific teammates.

Just writing a response in text is not visible to others on your team - you MUST use the SendMessage tool.

The user interacts primarily with the team lead. Your work is coordinated through the task system and teammate messaging.
`

/** Who a teammate is, told once at the top of its first prompt. */
export function teammateIdentity(team: string, name: string): string {
  return `You are "${name}", a member of the agent team "${team}". The team lead is "${LEAD_NAME}". Finish your assignment, then report to the lead with SendMessage.`
}

/** What follows a shutdown request, in Claude Code's words: how to approve or decline it. */
export function shutdownInstruction(requestId: string): string {
  const input = JSON.stringify({ to: LEAD_NAME, message: { type: 'shutdown_response', request_id: requestId, approve: true } })
  return `This is a shutdown request. To approve it, call SendMessage with exactly this input, where "message" is a JSON object rather than a string: ${input}. Approving ends your process; a plain-text acknowledgment does not shut you down. To decline, for example because you're mid-task, send the same input with "approve": false and a "reason".`
}

/** The message an idle teammate starts again with once it has claimed a task. */
export function claimedTaskText(task: Task): string {
  return [
    `You claimed task #${task.id} from the team's task list (it was unowned and unblocked): ${task.subject}`,
    task.description ? `\n${task.description}` : '',
    `\nWork on it, mark it completed with TaskUpdate when it is done, then tell ${LEAD_NAME} with SendMessage.`,
  ].join('')
}

/** The lead's inbox as a reminder: what its teammates sent since it last looked. */
export function inboxReminder(blocks: string[]): string {
  return `[Inbox] ${blocks.length} new message${blocks.length === 1 ? '' : 's'} from your team:\n\n${blocks.join('\n\n')}`
}

/** What the lead is told with a teammate's plan approval request: how to answer it. */
export function planApprovalInstruction(member: string, requestId: string): string {
  return `${member} is in plan mode and waits for your approval of the plan above. Answer with SendMessage({to: "${member}", message: {type: "plan_approval_response", request_id: "${requestId}", approve: true}}) to let it implement, or approve: false with feedback to keep it planning.`
}

// Longer than 300 lines because the team's one state (its members and where each stands) is
// changed by every operation here — create, spawn, send, a run's end, the mailbox poll — and its
// invariants (one team, a member is in the config exactly while it may receive, only the lead
// answers asks) are kept together. The pieces without that state are in their own files.
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import type { ApprovalAsker } from '../../governance/approvals/queue'
import type { TaskListAccess, AgentCall, TeamStructuredMessage, ToolContext, ToolResult } from '../../tools/types'
import { errorResult } from '../../tools/define-tool'
import { TeamMailboxes, type MailboxProblem } from '../../store/teams/mailbox'
import { messageSummary, kindOf, parseProtocolMessage, teammateMessageBlock, type InboxMessage, type ProtocolMessage } from '../../store/teams/messages'
import { createTeamConfig, LEAD_NAME, removeTeam, TEAM_COLORS, teamConfigPath, updateTeamConfig } from '../../store/teams/team-file'
import { isValidMemberName, sanitizeName, teamDir } from '../../store/teams/team-paths'
import type { Prepared } from '../prepare-agent'
import type { SubagentOutcome } from '../run-subagent'
import type { TeammateLink } from '../agent-record'
import { BubbledAsks } from './bubbled-asks'
import { MemberMode } from './member-mode'
import type { PermissionModeName } from '../../../shared/ipc/contract'
import { claimedTaskText, inboxReminder, shutdownInstruction, TEAMMATE_SYSTEM_PROMPT_ADDENDUM, teammateIdentity } from './teammate-prompt'

/** How often mailboxes are looked at (Claude Code polls about once a second). */
export const TEAM_POLL_MS = 1_000

/** What the team needs of the session's subagents. */
export interface TeamAgents {
  /** A teammate's make: its type's, in the background, with SendMessage. */
  prepareTeammate(call: AgentCall): Promise<Prepared | { error: string }>
  launch(prepared: Prepared, prompt: string, extra: { teammate: TeammateLink; parentToolUseId?: string }): { id: string } | { error: string }
  deliver(id: string, text: string): boolean
  isRunning(id: string): boolean
}

/** Options of {@link SessionTeam}. */
export interface SessionTeamOptions {
  sessionId: string
  /** Claude Code's `teams/` folder. */
  teamsRoot: string
  agents: TeamAgents
  /** The session's task list: idle teammates claim from it; `aliases` names teammates as task owners. */
  tasks?: TaskListAccess & { aliases?: Map<string, string> }
  /** The user's approval queue: a teammate's asks reach it through the lead. */
  queue: ApprovalAsker
  /** The lead's inbox, as an `[Inbox]` reminder (or a turn of its own when the lead is idle). */
  toLead(text: string): void
  /** Events of the main agent (team messages), into its transcript and out. */
  emit(event: AgentEvent): void
  /** The lead's permission mode now: a teammate's is never looser. */
  leadMode?(): PermissionModeName
  now?(): number
  pollMs?: number
}

interface Member {
  name: string
  agentId: string
  agentType: string
  color: string
  state: 'working' | 'idle' | 'ending' | 'ended'
  /** The shutdown request it was sent and has not answered. */
  shutdownRequest?: string
  /** Its mode as the lead set it (an approved plan), and its running gate. */
  mode: MemberMode
  /** Settles when it has ended (its run after an approved shutdown, or a stop). */
  ended: Promise<void>
  markEnded(): void
}

/** How long TeamDelete waits for teammates that approved their shutdown to finish their last turn. */
const ENDING_WAIT_MS = 15_000

interface Team {
  name: string
  dir: string
  mailboxes: TeamMailboxes
  members: Map<string, Member>
}

/**
 * The agent team of one session (Claude Code's design): the session's main agent leads it as
 * `team-lead`; each teammate is a full subagent with its own context, name and colour, running in
 * this process in the background. Members talk only through their mailboxes (one file each, see
 * store/teams), which are polled about once a second. A teammate's run that ends is its Stop: it
 * goes idle and tells the lead (an idle notification); an idle teammate takes the next unowned,
 * unblocked task from the task list itself. A teammate's permission asks go to the lead, and from
 * it to the user's approval queue. Shutdown is a handshake: the lead asks, the teammate approves
 * (or declines) with SendMessage. Contract: no method throws; failures are error results or notices.
 */
export class SessionTeam {
  private team: Team | undefined
  private timer: NodeJS.Timeout | undefined
  private ticking = false
  private readonly asks: BubbledAsks

  constructor(private readonly o: SessionTeamOptions) {
    this.asks = new BubbledAsks({ attended: o.queue.attended, post: (member, request) => this.mail(LEAD_NAME, member, JSON.stringify(request)).then(() => undefined) })
  }

  /** The team's name, when there is one. */
  get name(): string | undefined {
    return this.team?.name
  }

  /** The teammates still in the team (ListAgents). */
  members(): string[] {
    return [...(this.team?.members.values() ?? [])].filter((member) => member.state !== 'ended').map((member) => member.name)
  }

  /** Whether an Agent call makes a teammate. */
  spawns(call: AgentCall): boolean {
    return Boolean(call.name?.trim()) && (this.team !== undefined || Boolean(call.team_name?.trim()))
  }

  async create(input: { team_name: string; description?: string | undefined; agent_type?: string | undefined }, ctx: ToolContext): Promise<ToolResult> {
    if (ctx.agentId !== 'main') return errorResult('Only the lead (the main agent of the session) creates a team; teammates cannot.')
    if (this.team) return errorResult(`You already lead team "${this.team.name}". A leader can only manage one team at a time; end it with TeamDelete first.`)
    const name = sanitizeName(input.team_name)
    if (!name) return errorResult(`"${input.team_name}" cannot be a team name: use letters, digits, "-" and "_".`)
    const dir = teamDir(this.o.teamsRoot, name)
    const now = this.now()
    const created = await createTeamConfig(dir, {
      name,
      ...(input.description && { description: input.description }),
      createdAt: now,
      leadAgentId: `${LEAD_NAME}@${name}`,
      leadSessionId: this.o.sessionId,
      members: [{ agentId: `${LEAD_NAME}@${name}`, name: LEAD_NAME, agentType: input.agent_type?.trim() || LEAD_NAME, isActive: true, joinedAt: now, cwd: ctx.projectRoot, backendType: 'in-process' }],
    }).catch((error: unknown) => ({ ok: false as const, error: `The team could not be written: ${error instanceof Error ? error.message : String(error)}` }))
    if (!created.ok) return errorResult(created.error)
    this.team = { name, dir, mailboxes: new TeamMailboxes(dir, (problem) => this.damaged(problem)), members: new Map() }
    this.timer = setInterval(() => void this.tick(), this.o.pollMs ?? TEAM_POLL_MS)
    this.timer.unref?.()
    const file = teamConfigPath(dir)
    return {
      content: `Team "${name}" created; you lead it as "${LEAD_NAME}" (team file: ${file}). Start teammates with the Agent tool and a name (Agent({description, prompt, name})); talk to them with SendMessage({to: "<name>"}). Their messages reach you as [Inbox] reminders.`,
      details: { team_name: name, team_file_path: file, lead_agent_id: `${LEAD_NAME}@${name}` },
    }
  }

  async delete(ctx: ToolContext): Promise<ToolResult> {
    if (ctx.agentId !== 'main') return errorResult('Only the lead removes the team.')
    const team = this.team
    if (!team) return errorResult('There is no team to delete: you lead none.')
    // Those that approved their shutdown are finishing their last turn: wait for them (bounded).
    const ending = [...team.members.values()].filter((member) => member.state === 'ending')
    if (ending.length > 0) await Promise.race([Promise.all(ending.map((member) => member.ended)), new Promise((resolve) => setTimeout(resolve, ENDING_WAIT_MS))])
    const active = [...team.members.values()].filter((member) => member.state !== 'ended')
    if (active.length > 0) {
      return errorResult(`Cannot clean up team "${team.name}" with ${active.length} active member(s): ${active.map((member) => member.name).join(', ')}. Ask each to shut down first (SendMessage with message {type: "shutdown_request"}) and wait for their approval.`)
    }
    this.stop()
    await removeTeam(team.dir).catch(() => undefined)
    return { content: `Cleaned up the directories of team "${team.name}".`, details: { team_name: team.name } }
  }

  async spawn(call: AgentCall, ctx: ToolContext): Promise<ToolResult> {
    if (ctx.agentId !== 'main') return errorResult('Teammates cannot start teammates: only the lead does. Ask the lead with SendMessage.')
    const team = this.team
    if (!team) return errorResult(`There is no team${call.team_name ? ` named "${call.team_name}"` : ''}: create it with TeamCreate first.`)
    if (call.team_name && sanitizeName(call.team_name) !== team.name) return errorResult(`You lead team "${team.name}", not "${call.team_name}".`)
    const name = call.name!.trim()
    if (!isValidMemberName(name) || name === LEAD_NAME) return errorResult(`"${name}" cannot be a teammate's name: use letters, digits, "-" and "_" (and not "${LEAD_NAME}").`)
    if (team.members.get(name)?.state !== undefined && team.members.get(name)!.state !== 'ended') return errorResult(`Team "${team.name}" already has a member named "${name}".`)
    // The name and colour are taken before anything waits, so two spawns in one reply never share them.
    const color = TEAM_COLORS[team.members.size % TEAM_COLORS.length]!
    let markEnded = (): void => {}
    const ended = new Promise<void>((resolve) => (markEnded = resolve))
    const member: Member = { name, agentId: '', agentType: call.subagent_type ?? 'general-purpose', color, state: 'working', mode: new MemberMode(), ended, markEnded }
    team.members.set(name, member)
    const prepared = await this.o.agents.prepareTeammate(call)
    if ('error' in prepared) {
      team.members.delete(name)
      return errorResult(prepared.error)
    }
    member.agentType = prepared.make.type
    const prompt = `${teammateIdentity(team.name, name)}\n\n${call.prompt}`
    const make = { ...prepared.make, system: [...prepared.make.system, { type: 'text' as const, text: TEAMMATE_SYSTEM_PROMPT_ADDENDUM }] }
    const launched = this.o.agents.launch({ ...prepared, make, messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }] }, prompt, {
      teammate: {
        team: team.name,
        name,
        color,
        asker: (grants) => this.asks.askerFor(name, grants),
        mode: () => member.mode.current(),
        onGate: (gate) => member.mode.attach(gate),
        onRunEnd: (outcome) => void this.runEnded(team, member, outcome),
      },
      parentToolUseId: ctx.toolUseId,
    })
    if ('error' in launched) {
      team.members.delete(name)
      return errorResult(launched.error)
    }
    member.agentId = launched.id
    this.o.tasks?.aliases?.set(launched.id, name)
    await updateTeamConfig(team.dir, (config) => ({
      ...config,
      members: [...config.members.filter((entry) => entry.name !== name), { agentId: `${name}@${team.name}`, name, agentType: member.agentType, color, isActive: true, joinedAt: this.now(), cwd: ctx.projectRoot, backendType: 'in-process' }],
    })).catch(() => undefined)
    return {
      content: `Spawned teammate "${name}" (agent id ${launched.id}) in team "${team.name}". It works in the background with its own context; talk to it with SendMessage({to: "${name}"}). Its messages reach you as [Inbox] reminders.`,
      details: { name, agent_id: launched.id, team_name: team.name, color },
    }
  }

  async send(to: string, message: string | TeamStructuredMessage, summary: string | undefined, ctx: ToolContext): Promise<ToolResult | undefined> {
    const team = this.team
    if (!team) return undefined
    const sender = this.nameOf(ctx.agentId)
    if (!sender) return undefined
    const target = to.trim()
    if (/^agent-[0-9a-f]{16}$/.test(target) && ![...team.members.values()].some((member) => member.agentId === target)) return undefined
    if (target === '*') {
      if (typeof message !== 'string') return errorResult('Only plain text can go to everyone ("*").')
      const others = [...team.members.values()].filter((member) => member.state !== 'ended' && member.name !== sender).map((member) => member.name)
      if (sender !== LEAD_NAME) others.unshift(LEAD_NAME)
      for (const name of others) await this.mail(name, sender, message, summary)
      return { content: `Message sent to ${others.length} member(s) of team "${team.name}": ${others.join(', ')}.` }
    }
    const recipient = target === 'main' || target === LEAD_NAME ? LEAD_NAME : target
    const member = team.members.get(recipient)
    if (recipient !== LEAD_NAME && !member) {
      this.event(ctx.agentId, { from: sender, to: recipient, kind: 'error', summary: `no member named "${recipient}"`, text: typeof message === 'string' ? message : JSON.stringify(message) })
      return errorResult(`No member named "${recipient}" in team "${team.name}"; the message was not sent. Its members: ${[LEAD_NAME, ...team.members.keys()].join(', ')}.`)
    }
    if (recipient === sender) return errorResult('That is you: send the message to another member.')
    if (member?.state === 'ended') return errorResult(`${recipient} has shut down and reads no more messages.`)
    if (typeof message !== 'string') return this.sendStructured(team, sender, recipient, message)
    await this.mail(recipient, sender, message, summary)
    return { content: `Message sent to ${recipient}'s inbox.` }
  }

  /** The member name of an agent of this session: the lead for the main agent; undefined for a plain subagent. */
  nameOf(agentId: string): string | undefined {
    if (agentId === 'main') return LEAD_NAME
    for (const member of this.team?.members.values() ?? []) if (member.agentId === agentId) return member.name
    return undefined
  }

  /** Stops polling and settles pending asks; the config marks every teammate inactive (the team stays on disk, as Claude Code keeps it). */
  async dispose(): Promise<void> {
    const team = this.team
    this.stop()
    if (team) await updateTeamConfig(team.dir, (config) => ({ ...config, members: config.members.map((entry) => (entry.name === LEAD_NAME ? entry : { ...entry, isActive: false })) })).catch(() => undefined)
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.asks.abortAll()
    this.team = undefined
  }

  private async sendStructured(team: Team, sender: string, recipient: string, message: TeamStructuredMessage): Promise<ToolResult> {
    const at = new Date(this.now()).toISOString()
    const member = team.members.get(sender === LEAD_NAME ? recipient : sender)!
    switch (message.type) {
      case 'shutdown_request': {
        if (sender !== LEAD_NAME) return errorResult('Only the lead asks a teammate to shut down.')
        const requestId = `shutdown-${this.now()}@${recipient}`
        member.shutdownRequest = requestId
        await this.mail(recipient, sender, JSON.stringify({ type: 'shutdown_request', requestId, from: sender, ...(message.reason && { reason: message.reason }), timestamp: at }))
        return { content: `Shutdown request sent to ${recipient} (request id ${requestId}). It approves or declines with SendMessage; you will see its answer in your inbox.`, details: { request_id: requestId } }
      }
      case 'shutdown_response': {
        if (recipient !== LEAD_NAME) return errorResult(`A shutdown_response goes to ${LEAD_NAME}.`)
        if (member.shutdownRequest !== message.request_id) return errorResult(`There is no shutdown request "${message.request_id}" for you to answer${member.shutdownRequest ? ` (yours is "${member.shutdownRequest}")` : ''}.`)
        member.shutdownRequest = undefined
        if (!message.approve) {
          await this.mail(LEAD_NAME, sender, JSON.stringify({ type: 'shutdown_rejected', requestId: message.request_id, from: sender, reason: message.reason ?? 'No reason given.', timestamp: at }))
          return { content: 'You declined the shutdown; the lead was told. Go on with your work.' }
        }
        member.state = 'ending'
        await this.mail(LEAD_NAME, sender, JSON.stringify({ type: 'shutdown_approved', requestId: message.request_id, from: sender, timestamp: at, backendType: 'in-process' }))
        return { content: 'Shutdown approved. You end when this turn does: finish it now, without further tool calls.' }
      }
      case 'plan_approval_response': {
        if (sender !== LEAD_NAME) return errorResult('Only the lead answers a plan approval request.')
        // The lead's own call, in this process: an approval moves the teammate out of plan mode here
        // (to the lead's mode at most), never on the word of a mailbox file anyone could write.
        let moved = ''
        if (message.approve) {
          const set = member.mode.set(this.o.leadMode?.() === 'plan' ? 'default' : (this.o.leadMode?.() ?? 'default'), this.o.leadMode?.() ?? 'default')
          moved = 'error' in set ? ` Its mode could not be changed: ${set.error}` : ` It now works in ${set.mode} mode.`
        }
        const mode = member.mode.current()
        await this.mail(recipient, sender, JSON.stringify({ type: 'plan_approval_response', requestId: message.request_id, approved: message.approve, ...(message.feedback && { feedback: message.feedback }), timestamp: at, ...(message.approve && mode && { permissionMode: mode }) }))
        return { content: `Plan ${message.approve ? 'approved' : 'rejected'}; ${recipient} was told.${moved}` }
      }
    }
  }

  /** Writes into a member's mailbox and tells the desktop. */
  private async mail(to: string, from: string, text: string, summary?: string): Promise<InboxMessage | undefined> {
    const team = this.team
    if (!team) return undefined
    const color = team.members.get(from)?.color
    const entry = await team.mailboxes.send(to, { from, text, ...(summary && { summary }), ...(color && { color }) })
    const senderId = from === LEAD_NAME ? 'main' : (team.members.get(from)?.agentId ?? 'main')
    this.event(senderId, { from, to, kind: kindOf(entry), summary: messageSummary(entry), text })
    return entry
  }

  private event(agentId: string, message: { from: string; to: string; kind: string; summary: string; text: string }): void {
    if (!this.team) return
    this.o.emit({ type: 'team_message', sessionId: this.o.sessionId, agentId, team: this.team.name, ...message, text: message.text.length > 2_000 ? `${message.text.slice(0, 2_000)}…` : message.text, at: this.now() })
  }

  /** A teammate's run ended: it shut down, was stopped, or went idle (its Stop → an idle notification). */
  private async runEnded(team: Team, member: Member, outcome: SubagentOutcome): Promise<void> {
    if (this.team !== team) return
    if (member.state === 'ending' || outcome.status === 'stopped') {
      member.state = 'ended'
      member.markEnded()
      if (outcome.status === 'stopped') await this.mail(LEAD_NAME, member.name, JSON.stringify({ type: 'teammate_terminated', message: `${member.name} was stopped before it finished.` })).catch(() => undefined)
      await updateTeamConfig(team.dir, (config) => ({ ...config, members: config.members.map((entry) => (entry.name === member.name ? { ...entry, isActive: false } : entry)) })).catch(() => undefined)
      return
    }
    member.state = 'idle'
    const failed = outcome.status === 'failed'
    const idle = {
      type: 'idle_notification',
      from: member.name,
      timestamp: new Date(this.now()).toISOString(),
      idleReason: failed ? 'failed' : 'available',
      ...(failed && outcome.message && { failureReason: outcome.message }),
      ...(outcome.resultText && { result: outcome.resultText.slice(0, 4_000) }),
    }
    await this.mail(LEAD_NAME, member.name, JSON.stringify(idle)).catch(() => undefined)
  }

  /** One look at every mailbox: the lead's, then each active teammate's; idle teammates then claim tasks. */
  private async tick(): Promise<void> {
    const team = this.team
    if (!team || this.ticking) return
    this.ticking = true
    try {
      const forLead: string[] = []
      for (const message of await team.mailboxes.take(LEAD_NAME)) {
        const block = this.atLead(team, message)
        if (block) forLead.push(block)
      }
      if (forLead.length > 0) this.o.toLead(inboxReminder(forLead))
      for (const member of team.members.values()) {
        if (member.state === 'ended') continue
        for (const message of await team.mailboxes.take(member.name)) this.atMember(member, message)
        if (member.state === 'idle' && !member.shutdownRequest) await this.claimFor(member)
      }
    } catch {
      // A busy mailbox is looked at again at the next tick; nothing was taken out of it.
    } finally {
      this.ticking = false
    }
  }

  /** A message in the lead's mailbox: a teammate's ask goes to the user; the rest is text for the lead. */
  private atLead(team: Team, message: InboxMessage): string | undefined {
    const member = team.members.get(message.from)
    const protocol = parseProtocolMessage(message.text)
    if (protocol?.type === 'permission_request') {
      if (member && protocol.agent_id === member.name) void this.askUser(team, member, protocol)
      return undefined
    }
    if (protocol?.type === 'sandbox_permission_request') {
      // A teammate's sandbox wants a host (a Claude Code teammate in a process of its own): the user answers, never the lead's model.
      if (member && protocol.workerName === member.name) void this.askHost(team, member, protocol)
      return undefined
    }
    if (protocol?.type === 'shutdown_approved' && member) member.state = member.state === 'ended' ? 'ended' : 'ending'
    return teammateMessageBlock(message)
  }

  /** A message in a teammate's mailbox: an answer to its ask settles it; anything else is its next user message. */
  private atMember(member: Member, message: InboxMessage): void {
    const protocol: ProtocolMessage | undefined = parseProtocolMessage(message.text)
    if (protocol?.type === 'permission_response') {
      // Only the lead answers; an answer from anyone else is dropped (and shows in the desktop's log of messages).
      this.asks.answer(member.name, message.from, protocol)
      return
    }
    if (protocol?.type === 'team_permission_update' || protocol?.type === 'mode_set_request') {
      // As Claude Code 2.1.328: permission rules and mode changes are never accepted from a mailbox
      // file (anyone who can write it could loosen the teammate's permissions).
      const what = protocol.type === 'team_permission_update' ? 'permission rules are' : 'permission mode changes are'
      this.o.emit({ type: 'notice', sessionId: this.o.sessionId, agentId: 'main', level: 'warning', message: `A ${protocol.type} from "${message.from}" in ${member.name}'s mailbox was dropped: ${what} never accepted from a mailbox.` })
      return
    }
    let text = teammateMessageBlock(message)
    if (protocol?.type === 'shutdown_request' && message.from === LEAD_NAME) {
      member.shutdownRequest = protocol.requestId
      text += `\n\n${shutdownInstruction(protocol.requestId)}`
    } else if (protocol?.type === 'plan_approval_response') {
      text += protocol.approved ? `\n\n[Plan Approved] ${protocol.feedback ?? 'You can now proceed with implementation'}` : `\n\n[Plan Rejected] ${protocol.feedback ?? 'Please revise your plan'}`
    }
    if (this.o.agents.deliver(member.agentId, text)) member.state = 'working'
  }

  /** The next unowned, unblocked task, claimed for an idle teammate (never while it holds an open one). */
  private async claimFor(member: Member): Promise<void> {
    const tasks = this.o.tasks
    if (!tasks || this.o.agents.isRunning(member.agentId)) return
    const task = await tasks.store.claimNext(member.name)
    if (!task) return
    if (this.o.agents.deliver(member.agentId, claimedTaskText(task))) member.state = 'working'
  }

  /** A teammate's ask, put in the user's approval queue by the lead; the answer goes back to the teammate's mailbox. */
  private async askUser(team: Team, member: Member, request: Extract<ProtocolMessage, { type: 'permission_request' }>): Promise<void> {
    const grants = this.asks.grantsOf(request.request_id, member.name)
    const outcome = await this.o.queue.request({
      sessionId: this.o.sessionId,
      ...(request.tool_use_id !== undefined && { toolUseId: request.tool_use_id }),
      toolName: request.tool_name,
      input: request.input,
      ...(request.preview !== undefined && { preview: request.preview as never }),
      explanation: (request.explanation as never) ?? { kind: 'default', detail: request.description },
      suggestions: request.permission_suggestions.filter((rule): rule is string => typeof rule === 'string'),
      agent: { id: member.agentId, type: `teammate ${member.name}`, description: `${member.name} of team ${team.name}` },
      ...(grants && { grants }),
    })
    const response =
      outcome.behavior === 'allow'
        ? { type: 'permission_response', request_id: request.request_id, subtype: 'success', ...(request.tool_use_id !== undefined && { tool_use_id: request.tool_use_id }), response: { permission_updates: outcome.rules }, outcome }
        : { type: 'permission_response', request_id: request.request_id, subtype: 'error', ...(request.tool_use_id !== undefined && { tool_use_id: request.tool_use_id }), error: outcome.message, outcome }
    if (this.team === team) await this.mail(member.name, LEAD_NAME, JSON.stringify(response)).catch(() => undefined)
  }

  /** A teammate's sandbox network ask, put in the user's queue; the answer goes back as a `sandbox_permission_response`. */
  private async askHost(team: Team, member: Member, request: Extract<ProtocolMessage, { type: 'sandbox_permission_request' }>): Promise<void> {
    const host = request.hostPattern.host
    const outcome = await this.o.queue.request({
      sessionId: this.o.sessionId,
      toolName: 'Bash',
      input: { host },
      preview: { kind: 'url', url: host, domain: host },
      explanation: { kind: 'sandbox', detail: `${member.name} of team ${team.name}: its sandbox wants to reach ${host}, which is not among the allowed domains` },
      suggestions: [],
      agent: { id: member.agentId || member.name, type: `teammate ${member.name}`, description: `${member.name} of team ${team.name}` },
    })
    const response = { type: 'sandbox_permission_response', requestId: request.requestId, host, allow: outcome.behavior === 'allow', timestamp: new Date(this.now()).toISOString() }
    if (this.team === team) await this.mail(member.name, LEAD_NAME, JSON.stringify(response)).catch(() => undefined)
  }

  private damaged(problem: MailboxProblem): void {
    this.o.emit({ type: 'notice', sessionId: this.o.sessionId, agentId: 'main', level: 'warning', message: `A team mailbox is damaged and was skipped: ${problem.file}: ${problem.message}${problem.keptAt ? ` (its content is kept at ${problem.keptAt})` : ''}.` })
  }

  private now(): number {
    return (this.o.now ?? Date.now)()
  }
}

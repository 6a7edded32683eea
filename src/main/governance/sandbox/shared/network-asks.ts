import { nobodyCanAnswer } from '../../approvals/answerer'
import type { ApprovalAsker } from '../../approvals/queue'

/** A sandboxed command that is running, and how to widen what it may reach. */
interface RunningCommand {
  sessionId: string
  toolUseId?: string
  /** Replaces the hosts the proxy lets this command reach. */
  allow(hosts: string[]): void
}

/** Why a host is refused when the proxy cannot say which session's command asked. */
export const UNATTRIBUTED = 'commands of several sessions are running, so Sous asks the session whose command this was; retry once it is allowed'

/**
 * Network asks from the sandbox ("a new domain is an ask"), sent to the session whose command
 * made the request. Every sandboxed command is registered while it runs ({@link begin}), and the
 * hosts its session allowed go with it to the sandbox's proxy under the command's unguessable id,
 * so one session's "allow" never lets another session's command through.
 *
 * The library asks about an undecided host without saying which command wants it. When only one
 * session has commands running, the request can only be theirs: the connection waits while that
 * session is asked. When several have, the connection is refused at once with
 * {@link UNATTRIBUTED}; the proxy records that refusal under the command's id ({@link refused}),
 * and that command's session is asked; once allowed, its commands get the host (a retry passes).
 * When no session's answerer is a person (unattended runs), or no session is there to ask, the host is refused.
 */
export class NetworkAsks {
  private readonly queues = new Map<string, ApprovalAsker>()
  private readonly granted = new Map<string, Set<string>>()
  private readonly running = new Map<string, RunningCommand>()
  /** Follow-up asks in flight, by session and host, so a burst of refusals asks once. */
  private readonly following = new Set<string>()

  register(sessionId: string, queue: ApprovalAsker): void {
    this.queues.set(sessionId, queue)
  }

  forget(sessionId: string): void {
    this.queues.delete(sessionId)
    this.granted.delete(sessionId)
  }

  /** Hosts a session allowed, which its commands take to the proxy. */
  grants(sessionId: string): string[] {
    return [...(this.granted.get(sessionId) ?? [])]
  }

  /** A sandboxed command starts (before it is spawned). */
  begin(commandId: string, command: RunningCommand): void {
    this.running.set(commandId, command)
  }

  /** A sandboxed command ended (or never started). */
  end(commandId: string): void {
    this.running.delete(commandId)
  }

  /** The library's ask callback: a host no rule and no command's allowance decided. */
  async ask(host: string, port: number | undefined): Promise<boolean | { allow: false; reason: string }> {
    if (this.queues.size > 0 && ![...this.queues.values()].some((queue) => queue.attended)) {
      return { allow: false, reason: nobodyCanAnswer(`A connection to ${host}`, "it is not among the sandbox's allowed domains", 'Add it to sandbox.network.allowedDomains.') }
    }
    // A command whose session allowed this host has it in its own list: the request is not theirs.
    const sessions = new Set([...this.running.values()].filter((c) => !this.granted.get(c.sessionId)?.has(host)).map((c) => c.sessionId))
    if (sessions.size === 0) return { allow: false, reason: 'no running command of a session asked for it' }
    if (sessions.size > 1) return { allow: false, reason: UNATTRIBUTED }
    const [sessionId] = sessions as Set<string>
    const command = [...this.running.values()].find((c) => c.sessionId === sessionId)
    return this.askSession(sessionId!, command?.toolUseId, host, port, false)
  }

  /**
   * The proxy refused `host` for the command with this id (`line` is its violation line). A
   * refusal for lack of attribution asks that command's session; any other is already decided.
   */
  refused(commandId: string, line: string): void {
    const match = /^deny network-outbound (.+):(\d+) \((.*)\)$/s.exec(line)
    const command = this.running.get(commandId)
    if (!match || !command || !match[3]!.includes(UNATTRIBUTED)) return
    const host = match[1]!
    const key = `${command.sessionId}\u0000${host}`
    if (this.following.has(key) || this.granted.get(command.sessionId)?.has(host)) return
    this.following.add(key)
    void this.askSession(command.sessionId, command.toolUseId, host, Number(match[2]), true).finally(() => this.following.delete(key))
  }

  private async askSession(sessionId: string, toolUseId: string | undefined, host: string, port: number | undefined, afterRefusal: boolean): Promise<boolean> {
    const queue = this.queues.get(sessionId)
    if (!queue) return false
    const outcome = await queue.request({
      sessionId,
      ...(toolUseId ? { toolUseId } : {}),
      toolName: 'Bash',
      input: { host, ...(port !== undefined ? { port } : {}) },
      preview: { kind: 'url', url: port !== undefined ? `${host}:${port}` : host, domain: host },
      explanation: {
        kind: 'sandbox',
        detail: afterRefusal
          ? `a command of this session was refused ${host}, which is not among the sandbox's allowed domains; allowing it lets this session's commands reach it (the command must retry)`
          : `the command connects to ${host}, which is not among the sandbox's allowed domains`,
      },
      // No rule form silences this ask; allowed domains live in sandbox.network.allowedDomains.
      suggestions: [],
    })
    if (outcome.behavior !== 'allow') return false
    if (outcome.scope !== 'once' || afterRefusal) this.grant(sessionId, host)
    return true
  }

  /** Remembers the host for the session and hands it to the session's running commands at once. */
  private grant(sessionId: string, host: string): void {
    const hosts = this.granted.get(sessionId) ?? new Set<string>()
    hosts.add(host)
    this.granted.set(sessionId, hosts)
    for (const command of this.running.values()) if (command.sessionId === sessionId) command.allow([...hosts])
  }
}

import type { ApprovalQueue } from '../governance/approvals/queue'

/**
 * Network asks from the sandbox ("a new domain is an ask"). The sandbox is process-wide, so an ask
 * goes to the session whose Bash command was allowed last (the one running), as an approval with
 * the host; "allow for this session" remembers the host for that session. Headless, or with no
 * session to ask, the host is refused and the command sees the sandbox's refusal.
 */
export class NetworkAsks {
  private readonly queues = new Map<string, ApprovalQueue>()
  private readonly granted = new Map<string, Set<string>>()
  private current: { sessionId: string; toolUseId: string } | undefined

  constructor(private readonly headless: boolean) {}

  register(sessionId: string, queue: ApprovalQueue): void {
    this.queues.set(sessionId, queue)
  }

  forget(sessionId: string): void {
    this.queues.delete(sessionId)
    this.granted.delete(sessionId)
    if (this.current?.sessionId === sessionId) this.current = undefined
  }

  runningIn(sessionId: string, toolUseId: string): void {
    this.current = { sessionId, toolUseId }
  }

  async ask(host: string, port: number | undefined): Promise<boolean> {
    const current = this.current
    const queue = current && this.queues.get(current.sessionId)
    if (this.headless || !current || !queue) return false
    const grants = this.granted.get(current.sessionId) ?? new Set<string>()
    if (grants.has(host)) return true
    const outcome = await queue.request({
      sessionId: current.sessionId,
      toolUseId: current.toolUseId,
      toolName: 'Bash',
      input: { host, ...(port !== undefined ? { port } : {}) },
      preview: { kind: 'url', url: port !== undefined ? `${host}:${port}` : host, domain: host },
      explanation: { kind: 'sandbox', detail: `the command connects to ${host}, which is not among the sandbox's allowed domains` },
      // No rule form silences this ask; allowed domains live in sandbox.network.allowedDomains.
      suggestions: [],
    })
    if (outcome.behavior !== 'allow') return false
    if (outcome.scope !== 'once') this.granted.set(current.sessionId, grants.add(host))
    return true
  }
}

import { requests, type SessionSummary } from '../../../shared/ipc/contract'
import type { Router, Sender } from '../router'
import { forwardable, type RemoteProjects } from './remote-projects'

/**
 * The router of a core with remote projects: a request about a remote project (its path, one of
 * its sessions, terminals or approvals) goes to that project's host; every other one to `local`.
 * The sender is checked and the payload parsed against the contract first, as the local router
 * does — a remote never receives what this side would refuse. Contract: never throws or rejects.
 */
export function forwardingRouter(local: Router, remotes: RemoteProjects, isTrustedSender: (sender: Sender) => boolean): Router {
  return {
    async invoke(channel, payload, sender) {
      if (!isTrustedSender(sender) || !forwardable(channel)) return local.invoke(channel, payload, sender)
      const parsed = requests[channel].input.safeParse(payload ?? {})
      if (!parsed.success) return local.invoke(channel, payload, sender)
      try {
        if (channel === 'session.list' && (parsed.data as { projectPath?: string }).projectPath === undefined) return await withRemoteSessions(await local.invoke(channel, payload, sender), remotes)
        return (await remotes.forward(channel, parsed.data)) ?? (await local.invoke(channel, payload, sender))
      } catch {
        return { ok: false, error: { code: 'INTERNAL', message: `${channel} failed on the remote host.` } }
      }
    },
  }
}

/** Every project's sessions: the local answer, then each remote project's (its paths `ssh://…`), newest first. */
async function withRemoteSessions(answer: Awaited<ReturnType<Router['invoke']>>, remotes: RemoteProjects): Promise<Awaited<ReturnType<Router['invoke']>>> {
  if (!answer.ok) return answer
  const local = answer.value as SessionSummary[]
  const remote = await remotes.listSessions(new Set(local.map((summary) => summary.sessionId)))
  if (remote.length === 0) return answer
  return { ok: true, value: [...local, ...remote].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) }
}

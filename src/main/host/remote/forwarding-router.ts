import { requests } from '../../../shared/ipc/contract'
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
        return (await remotes.forward(channel, parsed.data)) ?? (await local.invoke(channel, payload, sender))
      } catch {
        return { ok: false, error: { code: 'INTERNAL', message: `${channel} failed on the remote host.` } }
      }
    },
  }
}

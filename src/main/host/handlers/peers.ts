import { AppError } from '../../../shared/ipc/result'
import type { SessionService } from '../../session/types'
import type { Handlers } from '../router'

type PeerChannels = 'session.peers' | 'session.setPeerPolicy' | 'session.peerMessage'

/**
 * The channels of messages between sessions: a session's address and policy, the per-session
 * toggle, releasing or dropping a held message. Thin delegation to the {@link SessionService};
 * without one every channel answers UNAVAILABLE.
 */
export function peerHandlers(deps: { sessions?: SessionService }): Pick<Handlers, PeerChannels> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'The agent is not available in this build.')
    return deps.sessions
  }
  return {
    'session.peers': ({ sessionId }) => service().peerStatus(sessionId),
    'session.setPeerPolicy': ({ sessionId, policy }) => service().setPeerPolicy(sessionId, policy === 'settings' ? undefined : policy),
    'session.peerMessage': ({ sessionId, messageId, action }) => service().settlePeerMessage(sessionId, messageId, action),
  }
}

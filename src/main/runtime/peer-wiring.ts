import type { PermissionGate } from '../governance/gate/gate'
import type { SessionHandle } from '../session/session'
import { LeadInbox } from './lead-inbox'
import { SessionPeers } from './peers'
import type { RuntimeParts } from './shared'
import type { Opening } from './toolset'

/** A session's peers as the runtime wires them: the peers, and what attaches and frees them. */
export interface SessionPeerParts {
  peers: SessionPeers
  attach(session: SessionHandle): void
  release(): Promise<void>
}

/**
 * Publishes one session among the sessions of this machine and wires what arrives from them:
 * into the model as the lead's inbox does (a reminder while it works, a turn of its own while it
 * is idle), turn starts and ends from the hub (its entry's busy / idle, the idle subscriptions).
 */
export function openSessionPeers(parts: RuntimeParts, opening: Opening, gate: PermissionGate): SessionPeerParts {
  const { options } = parts
  const { sessionId } = opening
  let handle: SessionHandle | undefined
  const inbox = new LeadInbox(opening.reminders, () => handle, 'cross-session')
  const peers = new SessionPeers({
    sousHome: options.home,
    sessionId,
    projectPath: opening.projectPath,
    mode: () => gate.mode,
    settings: () => {
      const behaviour = gate.settingsNow().behaviour
      return { ...(behaviour.crossSessionMessages && { policy: behaviour.crossSessionMessages }), ...(behaviour.crossSessionMessagesFloor && { floor: behaviour.crossSessionMessagesFloor }) }
    },
    deliver: (text) => inbox.push(text),
    emit: (event) => (handle ? handle.emit(event) : options.hub.emit('agent.event', event)),
    busy: () => handle?.busy === true,
  })
  void peers.open()
  const unsubscribe = options.hub.subscribe((channel, payload) => {
    if (channel !== 'agent.event') return
    const event = payload as { type: string; sessionId: string; agentId: string }
    if (event.sessionId !== sessionId || event.agentId !== 'main') return
    if (event.type === 'turn_start') peers.turn('busy')
    else if (event.type === 'turn_end') peers.turn('idle')
  })
  return {
    peers,
    attach: (session) => (handle = session),
    async release() {
      unsubscribe()
      await peers.close()
    },
  }
}

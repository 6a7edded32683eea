import { z } from 'zod'
import { Id } from './common'

/** What a session does with a message from another session of this machine. */
export const PeerPolicyName = z.enum(['accept', 'hold', 'refuse'])
export type PeerPolicyName = z.infer<typeof PeerPolicyName>

/** A message from another session that waits for the user (policy `hold`). */
export const HeldPeerMessage = z.object({ id: z.string(), from: z.string(), fromSessionId: z.string(), text: z.string(), at: z.number() })
export type HeldPeerMessage = z.infer<typeof HeldPeerMessage>

/** A live session among the sessions of this machine: its address, its policy and where it comes from, what it holds. */
export const PeerStatus = z.object({
  name: z.string(),
  ref: z.string(),
  policy: PeerPolicyName,
  /** `session`: the user's toggle for this session; `settings`: `crossSessionMessages`; `default`: neither. */
  source: z.enum(['session', 'settings', 'default']),
  override: PeerPolicyName.optional(),
  held: z.array(HeldPeerMessage),
})
export type PeerStatus = z.infer<typeof PeerStatus>

/** The `session.*` requests about messages between sessions (ListAgents / SendMessage across sessions). */
export const peerRequests = {
  /** A live session's address among the sessions of this machine, its policy and its held messages (unknown session: NOT_FOUND). */
  'session.peers': { input: z.object({ sessionId: Id }).strict(), output: PeerStatus },
  /**
   * The per-session toggle: accept, hold for the user, or refuse messages from other sessions;
   * `settings` goes back to the settings' word. A project's settings may still make it stricter.
   */
  'session.setPeerPolicy': { input: z.object({ sessionId: Id, policy: z.enum(['accept', 'hold', 'refuse', 'settings']) }).strict(), output: PeerStatus },
  /** Releases a held message into the conversation, or drops it (the sender is told); NOT_FOUND when it is not held. */
  'session.peerMessage': { input: z.object({ sessionId: Id, messageId: z.string().min(1).max(100), action: z.enum(['release', 'drop']) }).strict(), output: z.void() },
} as const

import { z } from 'zod'

/**
 * What travels between sessions, as JSON in a mailbox entry's `text` (`$SOUS_HOME/peers/inboxes/
 * <session id>.json`, the same locked mailbox files as a team's, `from` the sender's session id):
 * a message (with, optionally, an idle subscription), a receiver's word on what became of a
 * message (held for its user, refused, dropped, delivered after a hold), and an idle notice.
 */
export const PeerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('peer_message'), msgId: z.string().min(1).max(100), fromName: z.string().max(200), fromRef: z.string().max(20), fromMode: z.string().max(40).optional(), text: z.string().max(100_000), notifyWhenIdle: z.boolean().optional() }),
  z.object({ type: z.literal('peer_message_status'), origMsgId: z.string().max(100), status: z.enum(['held', 'refused', 'dropped', 'delivered', 'unavailable']), byName: z.string().max(200), detail: z.string().max(500).optional() }),
  z.object({ type: z.literal('peer_idle_notice'), origMsgId: z.string().max(100), state: z.enum(['idle', 'exited']), byName: z.string().max(200), finishedAt: z.number().optional() }),
])
export type PeerFrame = z.infer<typeof PeerFrame>

/** The frame in a mailbox entry's text; undefined for anything else (reported by the caller). */
export function parsePeerFrame(text: string): PeerFrame | undefined {
  try {
    const parsed = PeerFrame.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

// Longer than 300 lines because the session's one view of its peers — its published entry, its
// inbox, the messages held for its user and the idle subscriptions it holds for others — is
// changed by every operation here (publish, send, the poll, a turn's end, release, close), and
// the rules between them (a held message is delivered once or dropped once, each subscription
// fires once) are kept together. The files and the texts are in store/peers and peer-texts.ts.
import { randomBytes } from 'node:crypto'
import { chmod, mkdir } from 'node:fs/promises'
import { basename } from 'node:path'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { listPeers, peersDir, publishPeer, unpublishPeer, type PeerEntry } from '../store/peers/peer-registry'
import { parsePeerFrame, type PeerFrame } from '../store/peers/peer-frames'
import { HeldMessages } from '../store/peers/held-messages'
import { readPeerChoice, writePeerChoice } from '../store/peers/peer-choice'
import { TeamMailboxes } from '../store/teams/mailbox'
import { withFileLock } from '../store/teams/file-lock'
import type { PeerControl, PeerRow, ToolResult } from '../tools/types'
import { errorResult } from '../tools/define-tool'
import { crossSessionMessage, deliveryNotice, idleNotice, peerAddress } from './peer-texts'

/** What a session does with a message from another session of this machine. */
export type PeerPolicy = 'accept' | 'hold' | 'refuse'

const STRICTNESS: Record<PeerPolicy, number> = { accept: 0, hold: 1, refuse: 2 }

/** The stricter of two policies. */
export function stricter(a: PeerPolicy, b: PeerPolicy | undefined): PeerPolicy {
  return b !== undefined && STRICTNESS[b] > STRICTNESS[a] ? b : a
}

/** How often the inbox is looked at (as a team's mailboxes: about once a second). */
export const PEER_POLL_MS = 1_000

/** A message waiting for the user (policy `hold`). */
export interface HeldPeerMessage {
  id: string
  fromSessionId: string
  from: string
  text: string
  at: number
}

/** Options of {@link SessionPeers}. */
export interface SessionPeersOptions {
  sousHome: string
  sessionId: string
  projectPath: string
  /** The permission mode now (sent with each message; a message from a session in another mode is held by default). */
  mode(): string
  /**
   * The settings' word: `policy` from the user's own settings (or the command line), `floor` the
   * strictest a project's settings ask for (a repository may tighten, never loosen).
   */
  settings(): { policy?: PeerPolicy; floor?: PeerPolicy }
  /** Into the model's conversation: a reminder while it works, a turn of its own while it is idle. */
  deliver(text: string): void
  /** Events of the main agent (the attention inbox lists held messages). */
  emit(event: AgentEvent): void
  /** Whether a turn is running now. */
  busy(): boolean
  pollMs?: number
  now?(): number
}

/**
 * One session's place among the sessions of this machine (Claude Code's cross-session
 * messaging): it publishes itself in `$SOUS_HOME/peers/sessions/` (with its pid, so a crashed
 * session's entry is dropped by the next reader), lists the others (ListAgents), sends them
 * messages and idle subscriptions through their inbox files (SendMessage), and reads its own inbox
 * about once a second. What arrives is delivered, held for the user, or refused, by the session's
 * policy (the user's toggle, else the settings' `crossSessionMessages`, else accept — hold when
 * the sender runs in another permission mode); the sender hears of a hold or a refusal.
 * Contract: no method throws; failures are error results or notices.
 */
export class SessionPeers implements PeerControl {
  private readonly root: string
  private readonly mailboxes: TeamMailboxes
  /** The held messages on disk: they outlive the process, until the user releases or drops them. */
  private readonly heldStore: HeldMessages
  private readonly startedAt: number
  readonly ref: string
  readonly name: string
  private override: PeerPolicy | undefined
  /** The toggle's writes, one after another (each writes the toggle as it is then, so the last choice lands last). */
  private choiceWrites: Promise<void> = Promise.resolve()
  private readonly heldMessages = new Map<string, HeldPeerMessage & { msgId: string }>()
  /** Sessions waiting for this one to go idle: sender session id → its message id and name. */
  private readonly subscribers = new Map<string, { msgId: string }>()
  private state: 'busy' | 'idle' = 'idle'
  private timer: NodeJS.Timeout | undefined
  private ticking = false
  private readonly writes = new Set<Promise<unknown>>()
  private closed = false

  constructor(private readonly o: SessionPeersOptions) {
    this.root = peersDir(o.sousHome)
    this.mailboxes = new TeamMailboxes(this.root, (problem) => this.warn(`The cross-session inbox is damaged and was skipped: ${problem.file}: ${problem.message}${problem.keptAt ? ` (kept at ${problem.keptAt})` : ''}.`))
    this.heldStore = new HeldMessages(this.root, o.sessionId, (file, critical) => withFileLock(file, critical), (message) => this.warn(message))
    this.startedAt = this.now()
    this.ref = o.sessionId.replace(/[^0-9a-f]/gi, '').slice(0, 6).toLowerCase() || o.sessionId.slice(0, 6)
    this.name = `${basename(o.projectPath).replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40) || 'session'}-${this.ref.slice(0, 2)}`
    // The user's toggle outlives the process, as the held messages do.
    this.override = readPeerChoice(this.root, o.sessionId, (message) => this.warn(message))
  }

  /** Publishes the session and starts reading its inbox (close waits for it to be done). */
  open(): Promise<void> {
    this.opening ??= this.start().catch((error: unknown) => this.warn(`Messages from other sessions are off for this session: ${error instanceof Error ? error.message : String(error)}`))
    return this.opening
  }

  private opening: Promise<void> | undefined

  private async start(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 }).catch(() => undefined)
    // Only this user reads and writes the peers folder: another account cannot post messages.
    await chmod(this.root, 0o700).catch(() => undefined)
    await this.publish()
    // What was held when the session last closed waits for the user again (the attention inbox lists it).
    const held = await this.heldStore.read()
    // Closed while it opened: close takes the entry away once this is done; nothing more starts.
    if (this.closed) return
    for (const message of held) {
      if (this.heldMessages.has(message.id)) continue
      this.heldMessages.set(message.id, message)
      this.event(message, 'held')
    }
    this.timer = setInterval(() => void this.tick(), this.o.pollMs ?? PEER_POLL_MS)
    this.timer.unref?.()
  }

  /** The policy in force now, and where it comes from. */
  policy(fromMode?: string): { policy: PeerPolicy; source: 'session' | 'settings' | 'default' } {
    const settings = this.o.settings()
    const chosen = this.override ?? settings.policy
    const base: PeerPolicy = chosen ?? (fromMode !== undefined && fromMode !== this.o.mode() ? 'hold' : 'accept')
    return { policy: stricter(base, settings.floor), source: this.override ? 'session' : settings.policy ? 'settings' : 'default' }
  }

  /** The user's toggle for this session (undefined: back to the settings), kept on disk for when it is opened again. */
  setOverride(policy: PeerPolicy | undefined): void {
    this.override = policy
    const write = (this.choiceWrites = this.choiceWrites.then(() => writePeerChoice(this.root, this.o.sessionId, this.override)))
    this.track(write, 'The choice for messages from other sessions could not be kept on disk (it holds until the session closes)')
  }

  /** What the app shows: the session's address, its policy, the held messages. */
  status(): { name: string; ref: string; policy: PeerPolicy; source: 'session' | 'settings' | 'default'; override?: PeerPolicy; held: HeldPeerMessage[] } {
    return { name: this.name, ref: this.ref, ...this.policy(), ...(this.override && { override: this.override }), held: [...this.heldMessages.values()].map(({ msgId: _id, ...held }) => held) }
  }

  /** Releases (delivers) or drops a held message; false when there is none of that id. */
  settleHeld(id: string, action: 'release' | 'drop'): boolean {
    const held = this.heldMessages.get(id)
    if (!held) return false
    this.heldMessages.delete(id)
    this.track(this.heldStore.remove(id))
    if (action === 'release') this.o.deliver(crossSessionMessage(held.from.replace(/ \[[^\]]*\]$/, ''), this.refOf(held.from), held.text))
    this.event(held, action === 'release' ? 'released' : 'dropped')
    this.post(held.fromSessionId, { type: 'peer_message_status', origMsgId: held.msgId, status: action === 'release' ? 'delivered' : 'dropped', byName: this.name })
    return true
  }

  /** A turn of the main agent started or ended: the entry says so; an end fires the idle subscriptions. */
  turn(state: 'busy' | 'idle'): void {
    this.state = state
    void this.publish()
    if (state === 'idle') setImmediate(() => (this.o.busy() ? undefined : this.fireIdle('idle')))
  }

  async list(): Promise<{ self: { name: string; ref: string }; peers: PeerRow[] }> {
    const peers = (await listPeers(this.root)).filter((entry) => entry.sessionId !== this.o.sessionId)
    return { self: { name: this.name, ref: this.ref }, peers: peers.map((entry) => ({ name: entry.name, ref: entry.ref, state: entry.state, projectPath: entry.projectPath, ...(entry.mode && { mode: entry.mode }) })) }
  }

  async send(to: string, text: string | undefined, notifyWhenIdle: boolean): Promise<ToolResult | undefined> {
    const target = await this.resolve(to)
    if (target === undefined) return undefined
    if ('error' in target) return errorResult(target.error)
    const msgId = `msg-${this.now()}-${randomBytes(4).toString('hex')}`
    const frame: PeerFrame = { type: 'peer_message', msgId, fromName: this.name, fromRef: this.ref, fromMode: this.o.mode(), text: text ?? '', ...(notifyWhenIdle && { notifyWhenIdle: true }) }
    try {
      await this.mailboxes.send(target.sessionId, { from: this.o.sessionId, text: JSON.stringify(frame) })
    } catch (error) {
      return errorResult(`The message could not be put in ${peerAddress(target.name, target.ref)}'s inbox: ${error instanceof Error ? error.message : String(error)}`)
    }
    const address = peerAddress(target.name, target.ref)
    const subscribed = notifyWhenIdle ? ` You are subscribed to one [Cross-session idle notice] when "${target.name}" next goes idle (or exits).` : ''
    const content = text
      ? `Message sent to ${address} (a Sous session on this machine, ${target.state} now); in that session's inbox, not yet read by its Claude — a [Cross-session delivery notice] follows if that session holds it for its user or refuses it.${subscribed}`
      : `Idle subscription sent to ${address}.${subscribed}`
    return { content, details: { to: address, session_id: target.sessionId, msg_id: msgId, notify_when_idle: notifyWhenIdle } }
  }

  /** Stops reading, tells the subscribers this session exited, and removes its entry. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.opening?.catch(() => undefined)
    if (this.timer) clearInterval(this.timer)
    this.fireIdle('exited')
    await Promise.allSettled([...this.writes])
    await unpublishPeer(this.root, this.o.sessionId)
  }

  /** A `to` that names a peer session: its entry; an error for a name of two sessions or for this one; undefined for none. */
  private async resolve(to: string): Promise<PeerEntry | { error: string } | undefined> {
    const wanted = to.trim()
    const bracket = /^(.*?)\s*\[([0-9a-z]{1,20})\]$/i.exec(wanted)
    const name = bracket ? bracket[1]!.trim() : wanted
    const ref = bracket?.[2]?.toLowerCase()
    if ((name === this.name && (!ref || ref === this.ref)) || wanted === this.o.sessionId) return { error: `"${wanted}" is this session: a message to it would be a message to yourself.` }
    const peers = (await listPeers(this.root)).filter((entry) => entry.sessionId !== this.o.sessionId)
    const byId = peers.find((entry) => entry.sessionId === wanted)
    if (byId) return byId
    const named = peers.filter((entry) => entry.name === name && (!ref || entry.ref === ref))
    if (named.length === 1) return named[0]
    if (named.length > 1) return { error: `${named.length} sessions are named "${name}": add the ref, ${named.map((entry) => `"${peerAddress(entry.name, entry.ref)}"`).join(' or ')}.` }
    if (ref) return { error: `No session "${wanted}" is running on this machine now (ListAgents lists those that are).` }
    return undefined
  }

  /** One look at the inbox. */
  private async tick(): Promise<void> {
    if (this.ticking || this.closed) return
    this.ticking = true
    try {
      for (const entry of await this.mailboxes.take(this.o.sessionId)) {
        const frame = parsePeerFrame(entry.text)
        if (!frame) this.warn(`A message in the cross-session inbox from "${entry.from}" is not one Sous reads; it was skipped.`)
        else this.receive(entry.from, frame, entry.timestamp)
      }
    } catch {
      // A busy inbox is looked at again at the next tick; nothing was taken out of it.
    } finally {
      this.ticking = false
    }
  }

  private receive(fromSessionId: string, frame: PeerFrame, timestamp: string): void {
    switch (frame.type) {
      case 'peer_message':
        return this.incoming(fromSessionId, frame, Date.parse(timestamp) || this.now())
      case 'peer_message_status':
        return this.o.deliver(deliveryNotice(frame.byName, frame.status, frame.detail))
      case 'peer_idle_notice':
        return this.o.deliver(idleNotice(frame.byName, frame.state, frame.finishedAt))
    }
  }

  private incoming(fromSessionId: string, frame: Extract<PeerFrame, { type: 'peer_message' }>, at: number): void {
    const { policy } = this.policy(frame.fromMode)
    const from = peerAddress(frame.fromName, frame.fromRef)
    const message = { id: frame.msgId, msgId: frame.msgId, fromSessionId, from, text: frame.text, at }
    if (policy === 'refuse') {
      if (frame.text) {
        this.event(message, 'refused')
        this.post(fromSessionId, { type: 'peer_message_status', origMsgId: frame.msgId, status: 'refused', byName: this.name })
      }
      if (frame.notifyWhenIdle) this.post(fromSessionId, { type: 'peer_message_status', origMsgId: frame.msgId, status: 'unavailable', byName: this.name })
      return
    }
    let delivered = false
    if (frame.text && policy === 'accept') {
      this.o.deliver(crossSessionMessage(frame.fromName, frame.fromRef, frame.text))
      this.event(message, 'delivered')
      delivered = true
    } else if (frame.text) {
      this.heldMessages.set(message.id, message)
      this.track(this.heldStore.add(message))
      this.event(message, 'held')
      this.post(fromSessionId, { type: 'peer_message_status', origMsgId: frame.msgId, status: 'held', byName: this.name })
    }
    if (frame.notifyWhenIdle) {
      this.subscribers.set(fromSessionId, { msgId: frame.msgId })
      // Idle now, with nothing delivered to start a turn: the notice goes at once.
      if (!delivered && !this.o.busy()) setImmediate(() => (this.o.busy() ? undefined : this.fireIdle('idle')))
    }
  }

  private fireIdle(state: 'idle' | 'exited'): void {
    for (const [sessionId, subscription] of this.subscribers) {
      this.subscribers.delete(sessionId)
      this.post(sessionId, { type: 'peer_idle_notice', origMsgId: subscription.msgId, state, byName: this.name, finishedAt: this.now() })
    }
  }

  /** Writes a frame into another session's inbox (kept track of, so close waits for it). */
  private post(sessionId: string, frame: PeerFrame): void {
    const write = this.mailboxes.send(sessionId, { from: this.o.sessionId, text: JSON.stringify(frame) }).catch(() => undefined)
    this.writes.add(write)
    void write.finally(() => this.writes.delete(write))
  }

  /** A write close waits for (a failure is told, and what it wrote stays in memory for this run). */
  private track(write: Promise<void>, what = 'A held message could not be kept on disk'): void {
    const tracked = write.catch((error: unknown) => this.warn(`${what}: ${error instanceof Error ? error.message : String(error)}`))
    this.writes.add(tracked)
    void tracked.finally(() => this.writes.delete(tracked))
  }

  /** Rewrites the entry (kept track of: close removes the entry only after the last rewrite landed). */
  private publish(): Promise<void> {
    if (this.closed) return Promise.resolve()
    const write = publishPeer(this.root, { sessionId: this.o.sessionId, ref: this.ref, name: this.name, pid: process.pid, projectPath: this.o.projectPath, mode: this.o.mode(), state: this.state, startedAt: this.startedAt, updatedAt: this.now() }).catch(() => undefined)
    this.writes.add(write)
    void write.finally(() => this.writes.delete(write))
    return write
  }

  private refOf(address: string): string {
    return /\[([^\]]*)\]$/.exec(address)?.[1] ?? ''
  }

  private event(message: HeldPeerMessage, status: 'delivered' | 'held' | 'released' | 'dropped' | 'refused'): void {
    this.o.emit({ type: 'peer_message', sessionId: this.o.sessionId, agentId: 'main', messageId: message.id, from: message.from, fromSessionId: message.fromSessionId, status, text: message.text.length > 2_000 ? `${message.text.slice(0, 2_000)}…` : message.text, at: this.now() })
  }

  private warn(message: string): void {
    // After close the session's transcript may be gone: a late read's warning has no one to tell.
    if (this.closed) return
    try {
      this.o.emit({ type: 'notice', sessionId: this.o.sessionId, agentId: 'main', level: 'warning', message })
    } catch {
      // The notice could not be recorded; the operation that warned has already carried on.
    }
  }

  private now(): number {
    return (this.o.now ?? Date.now)()
  }
}

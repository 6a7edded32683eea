import { z } from 'zod'
import { AgentEvent } from '../protocol/agent-event'

/**
 * The only truth between the main process and the renderer. Every request channel has an input
 * and an output schema; every event channel has a payload schema. Adding a channel is one entry
 * here plus one handler in `src/main/host/handlers/` (the compiler names a missing handler).
 * Channel names are `domain.verb`.
 */

const Id = z.string().min(1).max(200)
const AbsPath = z.string().min(1).max(4096)
const Empty = z.object({}).strict()

/** A project the user opened. */
export const Project = z.object({ path: z.string(), name: z.string(), openedAt: z.string() })
export type Project = z.infer<typeof Project>

export const requests = {
  /** Facts about the running app, for the status bar and the about box. */
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['electron', 'browser']) }),
  },

  /** Opens a folder as a project and remembers it among the recent ones. */
  'project.open': { input: z.object({ path: AbsPath }).strict(), output: Project },
  /** Recently opened projects, newest first. */
  'project.recent': { input: Empty, output: z.array(Project) },
  /** Asks the OS for a folder (desktop only); `null` when the user cancels. */
  'project.pick': { input: Empty, output: Project.nullable() },

  /** Starts a user terminal on a real PTY in a project folder. */
  'pty.create': {
    input: z
      .object({ cwd: AbsPath, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.object({ id: Id }),
  },
  /** Types into a terminal. */
  'pty.write': { input: z.object({ id: Id, data: z.string().max(1_000_000) }).strict(), output: z.void() },
  'pty.resize': {
    input: z
      .object({ id: Id, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.void(),
  },
  /** Acknowledges rendered output so a paused PTY may resume (flow control). */
  'pty.ack': { input: z.object({ id: Id, chars: z.number().int().min(0) }).strict(), output: z.void() },
  'pty.kill': { input: z.object({ id: Id }).strict(), output: z.void() },

  /** Starts a new conversation in a project. */
  'session.create': { input: z.object({ projectPath: AbsPath }).strict(), output: z.object({ sessionId: Id }) },
  /** Sends a prompt; the reply arrives as `agent.event`s. Resolves when the turn is accepted. */
  'session.prompt': {
    input: z.object({ sessionId: Id, text: z.string().min(1).max(1_000_000) }).strict(),
    output: z.void(),
  },
  /** Stops the running turn. */
  'session.abort': { input: z.object({ sessionId: Id }).strict(), output: z.void() },

  /** Stores the API key with the OS keychain. It is never readable back through the contract. */
  'settings.setApiKey': { input: z.object({ key: z.string().min(1).max(500) }).strict(), output: z.void() },
  /** Whether a key is present, and how it is protected. */
  'settings.apiKeyStatus': {
    input: Empty,
    output: z.object({
      present: z.boolean(),
      /** `memory`: set through the browser host; kept for this run only, never written to disk. */
      source: z.enum(['keychain', 'environment', 'memory', 'none']),
      warning: z.string().optional(),
    }),
  },
} as const

export const events = {
  /** Terminal output, batched. */
  'pty.data': z.object({ id: Id, data: z.string() }),
  /** A terminal's process ended. */
  'pty.exit': z.object({ id: Id, exitCode: z.number(), signal: z.number().optional() }),
  /** Everything an agent does. */
  'agent.event': AgentEvent,
  /** The OS asked us to open a folder (dropped on the app icon, second instance, …). */
  'project.openRequested': z.object({ path: z.string() }),
} as const

export type Requests = typeof requests
export type RequestChannel = keyof Requests
export type EventChannel = keyof typeof events
export type RequestInput<C extends RequestChannel> = z.input<Requests[C]['input']>
export type RequestParsed<C extends RequestChannel> = z.output<Requests[C]['input']>
export type RequestOutput<C extends RequestChannel> = z.output<Requests[C]['output']>
export type EventPayload<C extends EventChannel> = z.output<(typeof events)[C]>

/** Type guard for a channel name arriving from outside. */
export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.hasOwn(requests, name)
}

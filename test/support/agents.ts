/**
 * Helpers for subagent tests: agents run side by side, so their requests reach the scripted model
 * server in no fixed order. `routeByPrompt` answers each conversation from its own script, found
 * by the text of its first user message (an agent's prompt, or the main agent's).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { EventPayload } from '../../src/shared/ipc/contract'
import type { AgentEvent } from '../../src/shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../../src/main/base/event-hub'
import { NodePtyService } from '../../src/main/pty/node-pty-service'
import type { PtyService } from '../../src/main/pty/types'
import type { Message, ToolResultBlock } from '../../src/main/services/model/types'
import { createSessionRuntime, type SessionRuntime } from '../../src/main/runtime/runtime'
import type { SessionRuntimeOptions } from '../../src/main/runtime/options'
import type { RecordedRequest, Step } from '../model-server'

/** Where a test's runtime lives and what it talks to. */
export interface TestRuntimePlace {
  /** The scripted model server's URL. */
  serverUrl: string
  /** `$SOUS_HOME`. */
  home: string
  /** The user's `~`. */
  userHome: string
  hub: EventHub
  pty: PtyService
  /** The environment beside the model's key and URL (default: `HOME` at `userHome`). */
  env?: NodeJS.ProcessEnv
}

/**
 * The runtime every host uses, as the tests build it: the real model service against the scripted
 * server, a person answering (the approval queue), the default permission mode, and no memory side
 * requests (they have their own tests, memory/agents). `options` override any of it.
 */
export function createTestRuntime(place: TestRuntimePlace, options: Partial<SessionRuntimeOptions> = {}): SessionRuntime {
  return createSessionRuntime({
    home: place.home,
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: place.serverUrl, ...(place.env ?? { HOME: place.userHome }) },
    hub: place.hub,
    pty: place.pty,
    permissionMode: 'default',
    answerer: 'interactive',
    userHome: place.userHome,
    preferences: () => ({ autoMemory: false }),
    ...options,
  })
}

/** A script per conversation, keyed by a string its first user message contains. */
export type Routes = Record<string, Step[]>

/** The first user message's text of a request (its prompt), or of a fork's directive (its last user message). */
export function promptOf(request: Pick<RecordedRequest, 'body'>): string {
  const messages = request.body['messages'] as Message[]
  return textOf(messages[0]!)
}

/** The text of a message (text blocks joined). */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
}

/**
 * One looping step that answers every request from the script of the conversation it belongs to.
 * A fork copies its parent's conversation, so routes are tried on the last user message first
 * (where a fork's directive is), then on the first. A request no route claims, or a script run out,
 * is a failure of the scenario (the step throws).
 */
export function routeByPrompt(routes: Routes): Step {
  const queues = new Map(Object.entries(routes).map(([key, steps]) => [key, [...steps]]))
  return (request) => {
    const messages = request.body['messages'] as Message[]
    const lastUser = [...messages].reverse().find((message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((block) => block.type === 'text'))
    const candidates = [lastUser ? textOf(lastUser) : '', textOf(messages[0]!)]
    for (const text of candidates) {
      for (const [key, queue] of queues) {
        if (!text.includes(key)) continue
        const step = queue.shift()
        if (!step) throw new Error(`the script for "${key}" ran out`)
        return typeof step === 'function' ? step(request) : step
      }
    }
    throw new Error(`no route for a request starting "${candidates[1]!.slice(0, 80)}"`)
  }
}

/** Tool names a request offered the model. */
export function toolNamesOf(request: Pick<RecordedRequest, 'body'>): string[] {
  return (request.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)
}

/** The system prompt's text of a request. */
export function systemOf(request: Pick<RecordedRequest, 'body'>): string {
  return (request.body['system'] as Array<{ text: string }>).map((block) => block.text).join('\n')
}

/** A temp project and `$SOUS_HOME`, the session runtime every host uses, and every agent event it emitted. */
export interface AgentWorld {
  base: string
  project: string
  home: string
  userHome: string
  hub: EventHub
  runtime: SessionRuntime
  events: AgentEvent[]
  /** Replaces the runtime (after `dispose`), e.g. with other options. */
  restart(options?: Partial<SessionRuntimeOptions>): Promise<void>
}

/**
 * Sets up an {@link AgentWorld} before each test and tears it down after: a real PTY service, the
 * real model service pointed at `serverUrl()`, real files in a temp folder (HOME too).
 */
export function useAgentWorld(serverUrl: () => string, options: Partial<SessionRuntimeOptions> = {}): AgentWorld {
  const world = {} as AgentWorld
  let pty: NodePtyService
  const build = (extra: Partial<SessionRuntimeOptions>): SessionRuntime =>
    createTestRuntime({ serverUrl: serverUrl(), home: world.home, userHome: world.userHome, hub: world.hub, pty }, { ...options, ...extra })
  beforeEach(() => {
    world.base = realpathSync(mkdtempSync(join(tmpdir(), 'sous-agents-')))
    world.project = join(world.base, 'project')
    world.home = join(world.base, 'sous-home')
    world.userHome = join(world.base, 'user')
    mkdirSync(world.userHome, { recursive: true })
    mkdirSync(world.project, { recursive: true })
    writeFileSync(join(world.project, 'README.md'), '# Readme\n')
    world.hub = createEventHub()
    world.events = []
    world.hub.subscribe((channel, payload) => {
      if (channel === 'agent.event') world.events.push(payload as AgentEvent)
    })
    pty = new NodePtyService({ killGraceMs: 300 })
    world.runtime = build({})
    world.restart = async (extra = {}) => {
      await world.runtime.dispose()
      world.runtime = build(extra)
    }
  })
  afterEach(async () => {
    await world.runtime.dispose()
    await pty.dispose()
    rmSync(world.base, { recursive: true, force: true })
  })
  return world
}

/** Writes a user skill (`~/.claude/skills/<name>/SKILL.md`) into the world's home, with extra frontmatter lines. */
export function writeUserSkill(world: AgentWorld, name: string, frontmatter: string, body: string): void {
  writeTemplate(join(world.userHome, '.claude', 'skills', name), 'SKILL.md', name, frontmatter, body)
}

/** Writes a user command (`~/.claude/commands/<name>.md`) into the world's home, with extra frontmatter lines. */
export function writeUserCommand(world: AgentWorld, name: string, frontmatter: string, body: string): void {
  writeTemplate(join(world.userHome, '.claude', 'commands'), `${name}.md`, name, frontmatter, body)
}

function writeTemplate(dir: string, file: string, name: string, frontmatter: string, body: string): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, file), `---\ndescription: ${name} for the project\n${frontmatter}---\n${body}\n`)
}

/** The tool_result of a call in a conversation. */
export function resultOf(messages: Message[], toolUseId: string): ToolResultBlock | undefined {
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue
    const found = message.content.find((block) => block.type === 'tool_result' && block.tool_use_id === toolUseId)
    if (found) return found as ToolResultBlock
  }
  return undefined
}

/** Resolves with the first event the world's hub emits on `channel` that `test` accepts. */
export function nextOn<C extends 'agent.event' | 'approval.requested'>(world: AgentWorld, channel: C, test: (payload: EventPayload<C>) => boolean = () => true): Promise<EventPayload<C>> {
  return new Promise((resolve) => {
    const stop = world.hub.subscribe((name: string, payload: unknown) => {
      if (name !== channel || !test(payload as EventPayload<C>)) return
      stop()
      resolve(payload as EventPayload<C>)
    })
  })
}

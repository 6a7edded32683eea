import type { z } from 'zod'
import { agentsRequests } from './agents'
import { appRequests } from './app'
import { approvalEvents, approvalRequests } from './approval'
import { checkpointsRequests } from './checkpoints'
import { extensionsEvents, extensionsRequests } from './extensions'
import { contextRequests } from './context'
import { filesRequests } from './files'
import { memoryEvents, memoryRequests } from './memory'
import { projectEvents, projectRequests } from './project'
import { remoteEvents, remoteRequests } from './remote'
import { parallelEvents, parallelRequests } from './parallel'
import { ptyEvents, ptyRequests } from './pty'
import { sessionEvents, sessionRequests } from './session'
import { settingsRequests } from './settings'
import { planRequests } from './plan'
import { tasksRequests } from './tasks'
import { trustRequests } from './trust'
import { worktreesRequests } from './worktrees'

/**
 * The only truth between the main process and the renderer. Every request channel has an input
 * and an output schema; every event channel has a payload schema. Each domain keeps its channels
 * in its own file beside this one (`app.ts`, `project.ts`, `pty.ts`, `session.ts`, `approval.ts`,
 * `settings.ts`, `files.ts`, `trust.ts`, `extensions.ts`, `tasks.ts`, `plan.ts`, `context.ts`, `agents.ts`, `memory.ts`, `checkpoints.ts`, `parallel.ts`, `remote.ts`, `worktrees.ts`); this file merges them. Adding a channel is one entry in its domain's
 * file plus one handler in `src/main/host/handlers/` (the compiler names a missing handler); a new
 * domain is one file plus one spread below. Channel names are `domain.verb`.
 */

export * from './agents'
export * from './app'
export * from './approval'
export * from './checkpoints'
export * from './extensions'
export * from './context'
export * from './files'
export * from './memory'
export * from './parallel'
export * from './project'
export * from './pty'
export * from './remote'
export * from './session'
export * from './plan'
export * from './settings'
export * from './tasks'
export * from './trust'
export * from './worktrees'

export const requests = {
  ...appRequests,
  ...projectRequests,
  ...ptyRequests,
  ...sessionRequests,
  ...approvalRequests,
  ...settingsRequests,
  ...filesRequests,
  ...extensionsRequests,
  ...trustRequests,
  ...memoryRequests,
  ...tasksRequests,
  ...planRequests,
  ...contextRequests,
  ...agentsRequests,
  ...checkpointsRequests,
  ...remoteRequests,
  ...parallelRequests,
  ...worktreesRequests,
} as const

export const events = {
  ...ptyEvents,
  ...sessionEvents,
  ...approvalEvents,
  ...projectEvents,
  ...memoryEvents,
  ...extensionsEvents,
  ...remoteEvents,
  ...parallelEvents,
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

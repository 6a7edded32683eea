import type { EventChannel, events } from './contract'

// The renderer checks every event payload against the contract, but building every domain's zod
// schemas when its api chunk loaded was one long task of the window's start (50–70 ms on a quiet
// machine, bench/startup-window.ts). Here each domain's event schemas are a chunk of their own,
// imported the first time one of its channels carries an event. The schemas themselves stay in
// the domain files (`contract.ts` merges the same objects); this file only says where each lives.

/** Each domain that has event channels, and how to load its event schemas (the domain's own object). */
const loaders = {
  pty: async () => (await import('./pty')).ptyEvents,
  session: async () => (await import('./session')).sessionEvents,
  approval: async () => (await import('./approval')).approvalEvents,
  project: async () => (await import('./project')).projectEvents,
  memory: async () => (await import('./memory')).memoryEvents,
  extensions: async () => (await import('./extensions')).extensionsEvents,
  remote: async () => (await import('./remote')).remoteEvents,
  parallel: async () => (await import('./parallel')).parallelEvents,
}

type Domain = keyof typeof loaders
type Loaded<D extends Domain> = Awaited<ReturnType<(typeof loaders)[D]>>
/** The domain whose event object holds channel `C` (never, if none does: the map below then fails to compile). */
type DomainOf<C extends EventChannel> = { [D in Domain]: C extends keyof Loaded<D> ? D : never }[Domain]

/**
 * Which domain holds each channel. The compiler checks both ways: a channel of the contract missing
 * here, or named with a domain whose events do not hold it, is a type error.
 */
const domainOf: { [C in EventChannel]: DomainOf<C> } = {
  'pty.data': 'pty',
  'pty.exit': 'pty',
  'agent.terminal': 'pty',
  'agent.inputWait': 'pty',
  'agent.event': 'session',
  'approval.requested': 'approval',
  'approval.resolved': 'approval',
  'project.openRequested': 'project',
  'memory.changed': 'memory',
  'mcp.status': 'extensions',
  'hooks.ran': 'extensions',
  'remote.connection': 'remote',
  'parallel.changed': 'parallel',
}

/** One channel's payload schema. */
export type EventSchema<C extends EventChannel = EventChannel> = (typeof events)[C]

const loaded = new Map<Domain, Partial<typeof events>>()
const loading = new Map<Domain, Promise<Partial<typeof events>>>()

/** The channel's schema if its domain has been loaded, else undefined (then {@link loadEventSchema}). */
export function loadedEventSchema<C extends EventChannel>(channel: C): EventSchema<C> | undefined {
  return loaded.get(domainOf[channel])?.[channel] as EventSchema<C> | undefined
}

/**
 * Loads the channel's domain (once; a failed load is forgotten, so the next call tries again) and
 * resolves with its schema. Rejects when the domain's chunk cannot be loaded.
 */
export function loadEventSchema<C extends EventChannel>(channel: C): Promise<EventSchema<C>> {
  const domain = domainOf[channel]
  let promise = loading.get(domain)
  if (!promise) {
    promise = loaders[domain]().then((schemas) => {
      loaded.set(domain, schemas)
      return schemas
    })
    promise.catch(() => loading.delete(domain))
    loading.set(domain, promise)
  }
  return promise.then((schemas) => {
    const schema = schemas[channel]
    if (!schema) throw new Error(`The ${domain} domain has no schema for the event channel ${channel}.`)
    return schema as EventSchema<C>
  })
}

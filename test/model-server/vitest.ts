import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { startModelServer, type ModelServer } from './server'
import type { ModelServerOptions } from './types'

/**
 * One scripted model server for a test file: started before the first test, closed after the
 * last, its recorded requests and failures cleared before each test. After each test its
 * `failures` must be empty (a request that matched no step, a step's `expect` that threw, a
 * scenario run out): otherwise the test fails, naming them, even if the code under test
 * swallowed the error it got. A test about failures empties the list itself. The returned object stands
 * for the server (a proxy that forwards to it once it runs), so tests use it as they would the
 * server itself: `server.url`, `server.setScenario(…)`, `server.requests`.
 */
export function useModelServer(options?: ModelServerOptions): ModelServer {
  let running: ModelServer | undefined
  beforeAll(async () => {
    running = await startModelServer(options)
  })
  afterAll(async () => {
    await running?.close()
  })
  beforeEach(() => {
    running!.requests.length = 0
    running!.failures.length = 0
  })
  afterEach(() => {
    if (running) assertScenarioFollowed(running)
  })
  return new Proxy({} as ModelServer, {
    get(_target, property) {
      if (!running) throw new Error('The scripted model server is used before it started (outside a test?).')
      const value = Reflect.get(running, property, running) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(running) : value
    },
  })
}

/** Throws, listing them, when the server recorded failures; empties the list either way. */
export function assertScenarioFollowed(server: Pick<ModelServer, 'failures'>): void {
  const failures = server.failures.splice(0)
  if (failures.length === 0) return
  const list = failures.map((failure) => `  request ${failure.requestIndex}: ${failure.message}`).join('\n')
  throw new Error(`The scripted model server saw requests the scenario did not expect:\n${list}`)
}

import { mkdirSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { createHostCore, type HostCore } from '../../src/main/host-core'
import { MemoryKeyStore } from '../../src/main/secrets/memory-key-store'
import { startModelServer, type ModelServer } from '../model-server'
import { sandboxScratch } from './sandbox-scratch'
import { sshdProblem, startTestSshd, type TestSshd } from './sshd'

/** The app's side of a remote project over a real sshd on 127.0.0.1: its host core and what it emitted. */
export interface RemoteAppWorld {
  /** Why the sshd cannot run here (the suite is skipped), or undefined. */
  readonly problem: string | undefined
  readonly sshd: TestSshd
  readonly server: ModelServer
  /** The scratch folder (HOME): `project` (with a README.md) and `local-home` (SOUS_HOME) inside. */
  readonly work: string
  readonly project: string
  /** The local app's core (the browser host's), holding the API key; the remote never does. */
  readonly local: HostCore
  /** Every event the local core emitted, in order. */
  readonly events: Array<{ channel: string; payload: unknown }>
  /** A request to the local core's router, as a trusted browser client sends it. */
  call(channel: string, payload: unknown): ReturnType<HostCore['core']['router']['invoke']>
}

/**
 * Registers the hooks that start an sshd, a scripted model server and the local app's core in a
 * scratch folder named by `prefix`, and stop them after the file's tests.
 */
export function useRemoteApp(prefix: string): RemoteAppWorld {
  const problem = sshdProblem()
  const parts = {} as { sshd: TestSshd; server: ModelServer; work: string; project: string; local: HostCore }
  const events: Array<{ channel: string; payload: unknown }> = []
  beforeAll(async () => {
    if (problem) return
    parts.sshd = await startTestSshd()
    parts.server = await startModelServer({ scenario: [] })
    parts.work = sandboxScratch(prefix)
    parts.project = join(parts.work, 'project')
    mkdirSync(parts.project, { recursive: true })
    writeFileSync(join(parts.project, 'README.md'), 'remote readme\n')
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: parts.work, SOUS_HOME: join(parts.work, 'local-home'), SOUS_SSH: parts.sshd.sshCommand, ANTHROPIC_API_KEY: 'LOCAL-APP-KEY', ANTHROPIC_BASE_URL: parts.server.url }
    parts.local = createHostCore({ transport: 'browser', home: env.SOUS_HOME, env, keyStore: new MemoryKeyStore(env), log: () => {} })
    parts.local.core.events.subscribe((channel, payload) => void events.push({ channel, payload }))
  }, 60_000)
  afterAll(async () => {
    if (problem) return
    await parts.local.dispose()
    await parts.server.close()
    await parts.sshd.close()
    await rm(parts.work, { recursive: true, force: true })
  })
  return {
    problem,
    get sshd() {
      return parts.sshd
    },
    get server() {
      return parts.server
    },
    get work() {
      return parts.work
    },
    get project() {
      return parts.project
    },
    get local() {
      return parts.local
    },
    events,
    call: (channel, payload) => parts.local.core.router.invoke(channel, payload, { transport: 'ws', origin: 'http://127.0.0.1' }),
  }
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { client, ndJsonStream, type ClientConnection, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from '@agentclientprotocol/sdk'
import { afterEach, beforeEach } from 'vitest'
import type { ModelServer } from '../model-server'
import { ROOT, sousCommand } from './remote-host'

/** A real `sous acp` process driven by the ACP SDK's client side, and what it sent. */
export interface AcpRun {
  child: ChildProcessWithoutNullStreams
  connection: ClientConnection
  /** Every `session/update` received, in order. */
  updates: SessionNotification[]
  /** Every permission request received, in order. */
  asked: RequestPermissionRequest[]
  /** Every line the agent wrote on stdout (JSON-RPC messages), raw. */
  lines: string[]
  stderr(): string
  /** Closes stdin and waits for the exit code. */
  close(): Promise<number | null>
}

/**
 * Starts `sous acp` (the built CLI when there is one, else the sources) with `env` (nothing of this
 * process's but PATH) and connects an ACP client to its stdio. `answer` decides each permission request.
 */
export function startAcp(env: Record<string, string>, answer: (request: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse): AcpRun {
  const [program, ...rest] = sousCommand()
  const child = spawn(program!, [...rest, 'acp'], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  const updates: SessionNotification[] = []
  const asked: RequestPermissionRequest[] = []
  const lines: string[] = []
  let stderr = ''
  let partial = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n')
    partial = parts.pop() ?? ''
    lines.push(...parts.filter(Boolean))
  })
  const app = client({ name: 'sous-test' })
    .onNotification('session/update', ({ params }) => void updates.push(params))
    .onRequest('session/request_permission', async ({ params }) => {
      asked.push(params)
      return answer(params)
    })
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>)
  const connection = app.connect(stream)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return {
    child,
    connection,
    updates,
    asked,
    lines,
    stderr: () => stderr,
    async close() {
      child.stdin.end()
      return exited
    },
  }
}

/** The text of every update of one kind, joined. */
export function chunkText(updates: readonly SessionNotification[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .map((n) => n.update)
    .map((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : ''))
    .join('')
}

/** One ACP test's scratch: a home, a project, and the server and `sous acp` run it started (closed after it). */
export interface AcpWorld {
  /** The home folder (HOME), with `sous-home` (SOUS_HOME) inside. */
  readonly dir: string
  /** A project folder inside {@link dir}. */
  readonly project: string
  server?: ModelServer
  run?: AcpRun
  /** HOME, SOUS_HOME, a test key and the scripted server's URL, with `extra` over them. */
  env(extra?: Record<string, string>): Record<string, string>
}

/**
 * Registers the hooks that give each test a fresh {@link AcpWorld} and close what it started.
 * Memory extraction is off: its side request after each turn would take the script's next step.
 */
export function useAcpWorld(): AcpWorld {
  let dir = ''
  let project = ''
  const world: AcpWorld = {
    get dir() {
      return dir
    },
    get project() {
      return project
    },
    env: (extra = {}) => ({ HOME: dir, SOUS_HOME: join(dir, 'sous-home'), ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: world.server?.url ?? 'http://127.0.0.1:9', ...extra }),
  }
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sous-acp-'))
    project = await mkdtemp(join(dir, 'project-'))
    await mkdir(join(dir, 'sous-home'), { recursive: true })
    await writeFile(join(dir, 'sous-home', 'settings.json'), JSON.stringify({ sous: { autoMemory: false } }))
  })
  afterEach(async () => {
    await world.run?.close()
    world.run = undefined
    await world.server?.close()
    world.server = undefined
    await rm(dir, { recursive: true, force: true })
  })
  return world
}

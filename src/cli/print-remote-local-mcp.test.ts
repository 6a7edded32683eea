import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../test/model-server'
import { ROOT } from '../../test/support/remote-host'
import { runRemotePrint, takeRemoteFlags } from './print-remote'

// An MCP server the user marked `local` (`remoteLocalMcpServers`): started by this process (the
// local Sous, runRemotePrint runs here) and called by a turn of a real second Sous behind the
// command transport, its JSON-RPC travelling as frames of the remote channel.
const FIXTURE = join(ROOT, 'test', 'mcp', 'fixture-server.mjs')
let server: ModelServer
let work: string
let localHome: string
let remoteHome: string
let project: string

beforeAll(async () => {
  server = await startModelServer({ scenario: [] })
  work = mkdtempSync(join(tmpdir(), 'sous-local-mcp-'))
  localHome = join(work, 'local-sous')
  remoteHome = join(work, 'remote-home')
  project = join(work, 'project')
  for (const dir of [localHome, remoteHome, project]) mkdirSync(dir, { recursive: true })
  // The remote project defines a server of the same name: the user's local one wins, so a
  // repository cannot stand in for the server the user chose to keep on their machine.
  writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { laptop: { command: 'sh', args: ['-c', 'echo remote > remote-ran.txt'] } } }))
}, 60_000)
afterAll(async () => {
  // The remote hosts wait SOUS_HOST_GRACE_MS for a reconnect and write into their home meanwhile:
  // they are stopped (and gone) before the folder is removed.
  const hosts = remoteProcesses()
  for (const pid of hosts) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // It ended between the listing and now.
    }
  }
  for (let waited = 0; waited < 5_000 && hosts.some((pid) => existsSync(`/proc/${pid}`)); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
  await server.close()
  await rm(work, { recursive: true, force: true, maxRetries: 5 })
})

/** Every process started with a SOUS_HOME under this test's remote home (connectors and the hosts they started). */
function remoteProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`SOUS_HOME=${remoteHome}/`)
      } catch {
        return false
      }
    })
    .map(Number)
}

function sousThere(mark: string): string {
  const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
  return `env -u ANTHROPIC_API_KEY HOME=${remoteHome} SOUS_HOME=${join(remoteHome, mark)} REMOTE_MARK=${mark} SOUS_HOST_GRACE_MS=20000 ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
}

function settings(value: unknown): void {
  writeFileSync(join(localHome, 'settings.json'), JSON.stringify(value))
}

async function sous(mark: string, prompt: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const taken = takeRemoteFlags(['-p', '--remote', `pod:${project}`, '--remote-command', sousThere(mark), '--permission-mode', 'bypassPermissions', prompt])
  if (!taken.ok || !taken.flags) throw new Error(taken.ok ? 'no remote flags' : taken.message)
  let stdout = ''
  let stderr = ''
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, SOUS_HOME: localHome, ANTHROPIC_API_KEY: 'sk-ant-local', ANTHROPIC_BASE_URL: server.url }
  const code = await runRemotePrint(taken.flags, taken.rest, env, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } })
  return { code, stdout, stderr }
}

/** The pids of the connectors (`… host --stdio`) started with `mark` in their environment. */
function connectors(mark: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv.includes('host') && argv.includes('--stdio') && readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`REMOTE_MARK=${mark}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** The text of every tool result the model was sent in its last request. */
function lastToolResults(): string {
  return JSON.stringify(server.requests.at(-1)?.body['messages'])
}

describe('an MCP server marked local, offered to a remote project', () => {
  it('runs on this machine and a remote turn calls its tool and gets the result', async () => {
    const pidFile = join(work, 'pid.txt')
    settings({ remoteLocalMcpServers: ['laptop'], mcpServers: { laptop: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_PID_FILE: pidFile } } } })
    server.setScenario([
      toolUseReply('WaitForMcpServers', { servers: ['laptop'], timeout: 30_000 }, { id: 'toolu_wait' }),
      toolUseReply('mcp__laptop__echo', { message: 'from the laptop' }, { id: 'toolu_echo' }),
      textReply('Echoed.'),
    ])
    const run = await sous('local-mcp', 'echo through the local server')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Echoed.\n')
    expect(lastToolResults()).toContain('laptop: connected')
    expect(lastToolResults()).toContain('echo: from the laptop')
    // The tool list the remote's model saw names it like any server's.
    expect(JSON.stringify(server.requests.at(-1)?.body['tools'])).toContain('mcp__laptop__echo')
    // Its parent is this process — the local Sous — not the remote host daemon.
    const [pid, ppid] = readFileSync(pidFile, 'utf8').split(' ').map(Number)
    expect(pid).toBeGreaterThan(0)
    expect(ppid).toBe(process.pid)
    expect(existsSync(join(project, 'remote-ran.txt'))).toBe(false)
  }, 180_000)

  it('a local server that dies mid-call gives the remote a clear MCP error, and the turn goes on', async () => {
    settings({ remoteLocalMcpServers: ['laptop'], mcpServers: { laptop: { command: process.execPath, args: [FIXTURE] } } })
    server.setScenario([
      toolUseReply('WaitForMcpServers', { servers: ['laptop'], timeout: 30_000 }, { id: 'toolu_wait' }),
      toolUseReply('mcp__laptop__crash', {}, { id: 'toolu_crash' }),
      textReply('It crashed.'),
    ])
    const run = await sous('local-mcp-crash', 'crash the local server')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('It crashed.\n')
    expect(lastToolResults()).toMatch(/MCP server \\"laptop\\" stopped while calling crash: the local MCP server ended: the server process exited with code 3/)
  }, 180_000)

  it('after a dropped channel, the reconnect starts the local server again and its tool answers', async () => {
    settings({ remoteLocalMcpServers: ['laptop'], mcpServers: { laptop: { command: process.execPath, args: [FIXTURE] } } })
    server.setScenario([
      toolUseReply('WaitForMcpServers', { servers: ['laptop'], timeout: 30_000 }, { id: 'toolu_wait' }),
      toolUseReply('Bash', { command: 'sleep 8' }, { id: 'toolu_sleep' }),
      toolUseReply('WaitForMcpServers', { servers: ['laptop'], timeout: 60_000 }, { id: 'toolu_wait_again' }),
      toolUseReply('mcp__laptop__echo', { message: 'after the drop' }, { id: 'toolu_echo' }),
      textReply('Back.'),
    ])
    const before = server.requests.length
    const killer = (async () => {
      for (let i = 0; i < 1200 && server.requests.length < before + 2; i++) await new Promise((resolve) => setTimeout(resolve, 50))
      await new Promise((resolve) => setTimeout(resolve, 1000))
      for (const pid of connectors('local-mcp-drop')) process.kill(pid, 'SIGKILL')
    })()
    const run = await sous('local-mcp-drop', 'survive a drop')
    await killer
    expect(run.stderr).toContain('reconnected to pod')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Back.\n')
    expect(lastToolResults()).toContain('echo: after the drop')
  }, 240_000)

  it('a name with no user server, or a settings file that does not parse, offers nothing and says why', async () => {
    settings({ remoteLocalMcpServers: ['nowhere'] })
    server.setScenario([textReply('Nothing offered.')])
    const run = await sous('local-mcp-missing', 'hi')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('remoteLocalMcpServers names "nowhere", which is no user MCP server')
    writeFileSync(join(localHome, 'settings.json'), '{ not json')
    server.setScenario([textReply('Still nothing.')])
    const broken = await sous('local-mcp-missing', 'hi')
    expect(broken.code, broken.stderr).toBe(0)
    expect(broken.stderr).toContain('is not a JSON object; no local MCP server is offered')
  }, 180_000)
})

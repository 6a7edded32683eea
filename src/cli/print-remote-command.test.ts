import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../test/model-server'
import { ROOT } from '../../test/support/remote-host'
import { skippedUnless } from '../../test/support/sandbox-scratch'
import { sshdProblem, startTestSshd, type TestSshd } from '../../test/support/sshd'
import { runRemotePrint, takeRemoteFlags } from './print-remote'

// The user-configured transport (`--remote-command`): real processes, no ssh needed for the
// first tests; the last one reaches the second Sous through a real sshd with an ssh command of its own.
const SECRET = `sk-ant-local-only-${Math.random().toString(36).slice(2)}`
let server: ModelServer
let work: string
let remoteHome: string
let project: string

beforeAll(async () => {
  server = await startModelServer({ scenario: [] })
  work = mkdtempSync(join(tmpdir(), 'sous-remote-command-'))
  remoteHome = join(work, 'remote-home')
  project = join(work, 'project')
  mkdirSync(remoteHome, { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'README.md'), 'a project behind a command\n')
}, 60_000)
afterAll(async () => {
  await server.close()
  await rm(work, { recursive: true, force: true })
})

/** The Sous "there": this machine's, with a home of its own per mark (so each starts its own host daemon) and the mark in its environment. */
function sousThere(mark: string, graceMs = 20_000): string {
  const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
  return `env -u ANTHROPIC_API_KEY HOME=${remoteHome} SOUS_HOME=${join(remoteHome, mark)} REMOTE_MARK=${mark} SOUS_HOST_GRACE_MS=${graceMs} ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
}

async function sous(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const taken = takeRemoteFlags(['-p', ...args])
  if (!taken.ok || !taken.flags) throw new Error(taken.ok ? 'no remote flags' : taken.message)
  let stdout = ''
  let stderr = ''
  const code = await runRemotePrint(taken.flags, taken.rest, { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: server.url, ...env }, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
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

describe('sous -p --remote-command (a transport the user configures)', () => {
  it('runs the turn through the command, which got ` host --stdio` and Sous’s options appended, and never the key', async () => {
    server.setScenario([
      toolUseReply('Write', { file_path: join(project, 'made.txt'), content: 'through the command\n' }, { id: 'toolu_write' }),
      toolUseReply('Bash', { command: 'echo "mark=$REMOTE_MARK key=[$ANTHROPIC_API_KEY]" > bash.txt' }, { id: 'toolu_bash' }),
      textReply('Done behind the command.'),
    ])
    const before = server.requests.length
    const run = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('behind-a-command'), '--permission-mode', 'bypassPermissions', 'make the file'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Done behind the command.\n')
    expect(await readFile(join(project, 'made.txt'), 'utf8')).toBe('through the command\n')
    expect(await readFile(join(project, 'bash.txt'), 'utf8')).toBe('mark=behind-a-command key=[]\n')
    const requests = server.requests.slice(before)
    expect(requests.length).toBe(3)
    for (const request of requests) expect(request.headers['x-api-key']).toBe(SECRET)
  }, 120_000)

  it('a transport killed mid-turn reconnects through the command again, and the turn finishes', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'sleep 3; echo after > after.txt' }, { id: 'toolu_sleep' }), textReply('Finished after the drop.')])
    const before = server.requests.length
    const killer = (async () => {
      for (let i = 0; i < 600 && server.requests.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 50))
      await new Promise((resolve) => setTimeout(resolve, 1200))
      const pids = connectors('killed-mid-turn')
      expect(pids.length).toBeGreaterThan(0)
      for (const pid of pids) process.kill(pid, 'SIGKILL')
    })()
    const run = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('killed-mid-turn'), '--permission-mode', 'bypassPermissions', 'sleep then write'])
    await killer
    expect(run.stderr).toContain('the connection to pod dropped')
    expect(run.stderr).toContain('reconnected to pod')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Finished after the drop.\n')
    expect(await readFile(join(project, 'after.txt'), 'utf8')).toBe('after\n')
    // Each (re)connection starts a Sous from the sources: on a loaded two-core box that is slow.
  }, 240_000)

  it('--resume and --continue go on with a session stored there', async () => {
    server.setScenario([textReply('First answer.'), textReply('Second answer.'), textReply('Third answer.')])
    const first = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('resumed'), '--output-format', 'json', 'remember the word tangerine'])
    expect(first.code, first.stderr).toBe(0)
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id
    const second = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('resumed'), '--resume', sessionId, 'what was the word?'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stdout).toBe('Second answer.\n')
    expect(JSON.stringify(server.requests.at(-1)?.body['messages'])).toContain('tangerine')
    const third = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('resumed'), '--continue', 'and again?'])
    expect(third.code, third.stderr).toBe(0)
    expect(JSON.stringify(server.requests.at(-1)?.body['messages'])).toContain('what was the word?')
    const unknown = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('resumed'), '--resume', '00000000-0000-4000-8000-000000000000', 'hi'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No session 00000000-0000-4000-8000-000000000000')
  }, 120_000)

  it('a host that ended while the connection was down is said to have interrupted the turn, with how to go on', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'sleep 20' }, { id: 'toolu_cut' }), textReply('never')])
    const before = server.requests.length
    const killer = (async () => {
      for (let i = 0; i < 600 && server.requests.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 50))
      await new Promise((resolve) => setTimeout(resolve, 1500))
      for (const pid of connectors('host-gone')) process.kill(pid, 'SIGKILL')
    })()
    const run = await sous(['--remote', `pod:${project}`, '--remote-command', sousThere('host-gone', 200), '--permission-mode', 'bypassPermissions', 'sleep'])
    await killer
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('the host on pod ended while the connection was down: the turn was interrupted')
    expect(run.stderr).toMatch(/go on with --resume [0-9a-f-]{36}/)
  }, 120_000)

  it('a command that is not there, or fails, is reported with its message and exit code', async () => {
    const missing = await sous(['--remote', `pod:${project}`, '--remote-command', 'kubectl-not-installed-here exec -i pod -- sous', 'hi'])
    expect(missing.code).toBe(127)
    expect(missing.stderr).toContain('the transport command of pod could not start Sous')
    expect(missing.stderr).toContain('kubectl-not-installed-here')
    const failing = await sous(['--remote', `pod:${project}`, '--remote-command', 'echo "error: pod mypod not found" >&2; exit 3; true', 'hi'])
    expect(failing.code).toBe(3)
    expect(failing.stderr).toContain('the transport command of pod ended before the handshake (exit 3)')
    expect(failing.stderr).toContain('error: pod mypod not found')
  }, 60_000)

  it('reads the flags, and refuses a command without a folder', () => {
    expect(takeRemoteFlags(['-p', '--remote', 'pod:/srv/app', '--remote-command', 'kubectl exec -i p -- sous', 'hi'])).toEqual({
      ok: true,
      flags: { target: { destination: 'pod', folder: '/srv/app', transport: { kind: 'command', command: 'kubectl exec -i p -- sous' } }, remoteSous: 'sous', ownModelKey: false },
      rest: ['-p', 'hi'],
    })
    expect(takeRemoteFlags(['--remote-command', 'kubectl exec -i p -- sous'])).toMatchObject({ ok: false, message: expect.stringContaining('--remote <name>:<absolute dir>') })
    expect(takeRemoteFlags(['--remote', 'pod:/srv', '--remote-command', ' '])).toMatchObject({ ok: false })
    expect(takeRemoteFlags(['--devcontainer', '/home/me/app'])).toMatchObject({ ok: true, flags: { target: { destination: 'devcontainer', folder: '/home/me/app', transport: { kind: 'devcontainer', local: true } } } })
    expect(takeRemoteFlags(['--devcontainer', 'devbox:/srv/app'])).toMatchObject({ ok: true, flags: { target: { destination: 'devbox', folder: '/srv/app', transport: { kind: 'devcontainer' } } } })
    expect(takeRemoteFlags(['--devcontainer', 'relative'])).toMatchObject({ ok: false })
    expect(takeRemoteFlags(['--devcontainer', '/a', '--remote', 'b:/c'])).toMatchObject({ ok: false })
  })
})

const problem = sshdProblem()
let sshd: TestSshd | undefined
describe.skipIf(problem !== undefined)(skippedUnless('a --remote-command that goes through a real sshd on 127.0.0.1', problem), () => {
  beforeAll(async () => {
    sshd = await startTestSshd()
  }, 60_000)
  afterAll(async () => {
    await sshd?.close()
  })

  it('reaches the remote Sous through the user’s own ssh command line', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'echo "over=$REMOTE_MARK" > ssh-command.txt' }, { id: 'toolu_over' }), textReply('Through ssh, as the user wrote it.')])
    const run = await sous(['--remote', `jump:${project}`, '--remote-command', `${sshd!.sshCommand} -T ${sshd!.destination} ${sousThere('over-users-ssh')}`, '--permission-mode', 'bypassPermissions', 'go'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Through ssh, as the user wrote it.\n')
    expect(await readFile(join(project, 'ssh-command.txt'), 'utf8')).toBe('over=over-users-ssh\n')
  }, 120_000)
})

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../test/model-server'
import { ROOT } from '../../test/support/remote-host'
import { sandboxScratch, skippedUnless } from '../../test/support/sandbox-scratch'
import { sshdProblem, startTestSshd, type TestSshd } from '../../test/support/sshd'
import { findBridges } from '../main/governance/sandbox/bridge-watch'
import { SOUS_VERSION } from '../main/host/version'
import { runRemotePrint, takeRemoteFlags } from './print-remote'

const problem = sshdProblem()
const SECRET = `sk-ant-local-only-${Math.random().toString(36).slice(2)}`
let sshd: TestSshd
let server: ModelServer
let work: string
let remoteHome: string
let project: string

beforeAll(async () => {
  if (problem) return
  sshd = await startTestSshd()
  server = await startModelServer({ scenario: [] })
  // Outside the temp dirs, so the remote sandbox's "writes outside the project" are really outside.
  work = sandboxScratch('.sous-remote-test-')
  remoteHome = join(work, 'remote-home')
  project = join(work, 'project')
  mkdirSync(remoteHome, { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(join(project, 'README.md'), 'a remote project\n')
}, 60_000)
afterAll(async () => {
  if (problem) return
  await server.close()
  await sshd.close()
  await rm(work, { recursive: true, force: true })
})

/** The command that starts the second Sous on the "remote" (this machine, through sshd, its own home). */
function remoteSous(extra = ''): string {
  const loader = `file://${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`
  return `env HOME=${remoteHome} SOUS_HOME=${join(remoteHome, '.sous')} REMOTE_MARK=on-the-remote SOUS_HOST_GRACE_MS=20000 ${extra} ${process.execPath} --import ${loader} ${join(ROOT, 'src', 'cli', 'index.ts')}`
}

async function sous(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const taken = takeRemoteFlags(['-p', ...args])
  if (!taken.ok || !taken.flags) throw new Error(taken.ok ? 'no --remote' : taken.message)
  let stdout = ''
  let stderr = ''
  const code = await runRemotePrint(taken.flags, taken.rest, { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, SOUS_SSH: sshd.sshCommand, ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: server.url, ...env }, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

/** The pids of this test's ssh clients (their command line names its config). */
function sshClients(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv[0] === 'ssh' && argv.includes(sshd.clientConfig)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Processes whose environment holds `entry` (`NAME=value`). */
function processesWithEnv(entry: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry)
    } catch {
      return false
    }
  }).map(Number)
}

/** Whether `pid` has a descendant whose command line starts with `name`. */
function hasChild(pid: number, name: string): boolean {
  const children = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : []
    } catch {
      return []
    }
  })
  return children.some((child) => {
    try {
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0')[0] === name) return true
    } catch {
      return false
    }
    return hasChild(child, name)
  })
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
}

/** Every process's environment and command line that holds `text` (the test's own included: it holds none). */
function processesHolding(text: string): string[] {
  const hits: string[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    for (const file of ['environ', 'cmdline']) {
      try {
        if (readFileSync(`/proc/${pid}/${file}`).includes(text)) hits.push(`${pid}/${file}`)
      } catch {
        // gone, or not ours to read
      }
    }
  }
  return hits
}

function filesHolding(dir: string, text: string): string[] {
  const hits: string[] = []
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name)
    try {
      if (statSync(path).isFile() && readFileSync(path).includes(text)) hits.push(path)
    } catch {
      // a socket or a file that went away
    }
  }
  return hits
}

describe.skipIf(problem !== undefined)(skippedUnless('sous -p --remote over a real sshd on 127.0.0.1', problem), () => {
  it('edits remote files and runs Bash there, confined by the remote sandbox, while the key never reaches the remote', async () => {
    const outside = join(work, 'outside.txt')
    server.setScenario([
      toolUseReply('Write', { file_path: join(project, 'made.txt'), content: 'written remotely\n' }, { id: 'toolu_write' }),
      toolUseReply('Bash', { command: 'echo "mark=$REMOTE_MARK key=[$ANTHROPIC_API_KEY]" > bash.txt; sleep 1' }, { id: 'toolu_bash' }),
      toolUseReply('Bash', { command: `echo escaped > ${outside}` }, { id: 'toolu_escape' }),
      textReply('All done on the remote.'),
    ])
    const seen: string[] = []
    const watch = setInterval(() => seen.push(...processesHolding(SECRET)), 50)
    const run = await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', remoteSous(), '--permission-mode', 'bypassPermissions', 'make the file'], {}).finally(() => clearInterval(watch))
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('All done on the remote.\n')
    expect(await readFile(join(project, 'made.txt'), 'utf8')).toBe('written remotely\n')
    expect(await readFile(join(project, 'bash.txt'), 'utf8')).toBe('mark=on-the-remote key=[]\n')
    // The remote sandbox refused the write outside the project.
    expect(() => statSync(outside)).toThrow()
    const escape = JSON.stringify(server.requests.at(-1)?.body['messages'])
    expect(escape).toMatch(/Read-only file system|Permission denied/)
    // Every model request left from here with the local key; none of the remote's processes or files held it.
    expect(server.requests.length).toBeGreaterThanOrEqual(4)
    for (const request of server.requests) expect(request.headers['x-api-key']).toBe(SECRET)
    expect(seen).toEqual([])
    expect(filesHolding(remoteHome, SECRET)).toEqual([])
    expect(filesHolding(project, SECRET)).toEqual([])
  }, 120_000)

  it('a connection killed mid-turn reconnects, and the turn the remote kept running finishes with the events it missed', async () => {
    server.setScenario([
      toolUseReply('Bash', { command: 'sleep 3; echo after > after.txt' }, { id: 'toolu_sleep' }),
      textReply('Finished after the drop.'),
    ])
    const before = server.requests.length
    const killer = (async () => {
      await waitFor(() => server.requests.length > before)
      await new Promise((resolve) => setTimeout(resolve, 1200))
      const ssh = sshClients()
      expect(ssh.length).toBeGreaterThan(0)
      for (const pid of ssh) process.kill(pid, 'SIGKILL')
    })()
    const run = await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', remoteSous(), '--permission-mode', 'bypassPermissions', 'sleep then write'])
    await killer
    expect(run.stderr).toContain(`the connection to ${sshd.destination} dropped`)
    expect(run.stderr).toContain(`reconnected to ${sshd.destination}`)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('Finished after the drop.\n')
    expect(await readFile(join(project, 'after.txt'), 'utf8')).toBe('after\n')
  }, 120_000)

  it('a remote host killed mid-command leaves no sandbox bridge running there', async () => {
    // A home of its own, so the host killed is this test's (earlier tests' hosts wait out their grace).
    const home = join(remoteHome, 'dies')
    server.setScenario([toolUseReply('Bash', { command: 'sleep 20; echo never > never.txt' }, { id: 'toolu_dies' }), textReply('Never.')], { loop: true })
    let bridges: Array<{ pid: number; socket: string }> = []
    const killer = (async () => {
      for (let i = 0; i < 400 && bridges.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        const host = processesWithEnv(`SOUS_HOME=${home}`).find((pid) => findBridges(pid).length > 0 && hasChild(pid, 'sleep'))
        if (host === undefined) continue
        bridges = findBridges(host)
        process.kill(host, 'SIGKILL')
      }
    })()
    await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', remoteSous(`SOUS_HOME=${home}`), '--permission-mode', 'bypassPermissions', 'sleep there'])
    await killer
    expect(bridges.length).toBeGreaterThan(0)
    await waitFor(() => bridges.every((bridge) => !existsSync(`/proc/${bridge.pid}`)))
    const left = bridges.filter((bridge) => existsSync(`/proc/${bridge.pid}`))
    for (const bridge of left) process.kill(bridge.pid, 'SIGTERM')
    expect(left).toEqual([])
  }, 120_000)

  it('a remote folder that does not exist is reported with the destination', async () => {
    const run = await sous(['--remote', `${sshd.destination}:${join(work, 'no-such-folder')}`, '--remote-sous', remoteSous(), 'hi'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`sous: ${sshd.destination}:${join(work, 'no-such-folder')}:`)
    expect(run.stderr).toContain(`No such folder: ${join(work, 'no-such-folder')}`)
  }, 60_000)

  it('a missing remote Sous is reported with the command that installs it', async () => {
    const run = await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', 'sous-not-installed-here', 'hi'])
    expect(run.code).toBe(127)
    expect(run.stderr).toContain(`Sous is not installed on ${sshd.destination}`)
    expect(run.stderr).toContain(`npm i -g sous@${SOUS_VERSION}`)
  }, 60_000)

  it('a remote Sous of another version is refused with the command that fixes it', async () => {
    const hello = JSON.stringify({ t: 'hello', role: 'host', protocol: 1, version: '0.0.1', model: 'relay' })
    const run = await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', `echo '${hello}'; sleep 5 #`, 'hi'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`it is Sous 0.0.1, this is Sous ${SOUS_VERSION}`)
    expect(run.stderr).toContain(`npm i -g sous@${SOUS_VERSION}`)
  }, 60_000)

  it('a destination that refuses shows ssh’s message and exit code', async () => {
    writeFileSync(sshd.clientConfig, `Host sous-closed\n  HostName 127.0.0.1\n  Port 9\n  BatchMode yes\n${readFileSync(sshd.clientConfig, 'utf8')}`)
    const run = await sous(['--remote', `sous-closed:${project}`, 'hi'])
    expect(run.code).toBe(255)
    expect(run.stderr).toContain('ssh to sous-closed failed (exit 255)')
    expect(run.stderr).toMatch(/Connection refused/)
  }, 60_000)

  it('a changed host key is refused, never bypassed', async () => {
    const saved = readFileSync(join(sshd.dir, 'known_hosts'))
    sshd.forgeKnownHost()
    try {
      server.setScenario([textReply('must not be asked')])
      const before = server.requests.length
      const run = await sous(['--remote', `${sshd.destination}:${project}`, '--remote-sous', remoteSous(), 'hi'])
      expect(run.code).toBe(255)
      expect(run.stderr).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/)
      expect(server.requests.length).toBe(before)
    } finally {
      writeFileSync(join(sshd.dir, 'known_hosts'), saved)
    }
  }, 60_000)
})

describe('takeRemoteFlags', () => {
  it('reads the destination and the folder, and refuses what could pass for an ssh option', () => {
    expect(takeRemoteFlags(['-p', '--remote', 'me@box:/srv/app/', 'hi'])).toEqual({ ok: true, flags: { target: { destination: 'me@box', folder: '/srv/app' }, remoteSous: 'sous', ownModelKey: false }, rest: ['-p', 'hi'] })
    expect(takeRemoteFlags(['--remote', '-oProxyCommand=touch /tmp/x:/srv'])).toMatchObject({ ok: false, message: expect.stringContaining('not an ssh destination') })
    expect(takeRemoteFlags(['--remote', 'box:relative'])).toMatchObject({ ok: false, message: expect.stringContaining('<destination>:<absolute dir>') })
    expect(takeRemoteFlags(['--remote=box:/a', '--remote-model', 'own'])).toMatchObject({ ok: true, flags: { ownModelKey: true } })
  })
})

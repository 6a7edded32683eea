import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer, type RecordedRequest } from '../model-server'

// Two real `sous -p` processes on one machine (one SOUS_HOME), each with its own scripted model:
// A lists the sessions, sends B a message with notify_when_idle and waits in a Bash call; B, busy
// in a Bash call of its own, gets the message with its next request, finishes, and A hears that B
// went idle. Waits are on state (files the processes write, a process's exit), never on a clock
// alone: each Bash call waits for a file and then for two of the inbox's one-second polls.
const ROOT = join(import.meta.dirname, '..', '..')
const CLI_SOURCE = join(ROOT, 'src', 'cli', 'index.ts')

let dir: string
const servers: ModelServer[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-peers-'))
  await mkdir(join(dir, 'sous'), { recursive: true })
  await mkdir(join(dir, 'alpha'), { recursive: true })
  await mkdir(join(dir, 'beta'), { recursive: true })
})
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  await rm(dir, { recursive: true, force: true })
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** `sous -p` in `project` against `server`, SOUS_HOME shared; resolves when the process exits. */
function sous(project: string, server: ModelServer, sousHome: string, prompt: string): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_SOURCE, '-p', '--cwd', join(dir, project), prompt], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: dir, SOUS_HOME: sousHome, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-test-peers' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/** Everything a request sent, as one string (messages and their reminders). */
const sent = (request: RecordedRequest): string => JSON.stringify(request.body['messages'])

/** The session name the ListAgents result in this request gave for the project `beta`. */
function betaName(request: RecordedRequest): string {
  const found = /- (beta-[0-9a-f]{2}) \[([0-9a-f]{6})\]/.exec(sent(request))
  if (!found) throw new Error(`no beta session in the listing: ${sent(request).slice(-600)}`)
  return found[1]!
}

/** A script that waits (bounded) for `file`, then for two more polls of the inbox; Bash runs it as a plain command. */
async function waitScript(name: string, file: string, first = ''): Promise<string> {
  const script = join(dir, `${name}.sh`)
  await writeFile(script, `${first}\ni=0\nwhile [ ! -f ${file} ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done\nsleep 2.5\n`)
  return `sh ${script}`
}

/** Runs B (busy until A has sent) and A (sending, then waiting until B exited); returns both runs and servers. */
async function exchange(policy: 'accept' | 'hold' | 'refuse' | undefined, notify: boolean) {
  const home = join(dir, 'sous')
  await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] }, ...(policy && { crossSessionMessages: policy }) }))
  const sentMarker = join(dir, 'sent')
  const exitedMarker = join(dir, 'b-exited')
  const b = await startModelServer({ scenario: [toolUseReply('Bash', { command: await waitScript('b-wait', sentMarker), description: 'wait' }), textReply('B is done.')] })
  const a = await startModelServer({
    scenario: [
      toolUseReply('ListAgents', {}),
      (request) => toolUseReply('SendMessage', { to: betaName(request), message: 'Please check whether the tests pass over there.', ...(notify && { notify_when_idle: true }) }),
      toolUseReply('Bash', { command: await waitScript('a-wait', exitedMarker, `touch ${sentMarker}`), description: 'wait for B' }),
      textReply('A is done.'),
    ],
  })
  servers.push(a, b)
  const runB = sous('beta', b, home, 'Work for a while.')
  await until(async () => (await readdir(join(home, 'peers', 'sessions')).catch(() => [])).length === 1, "B's entry in the registry")
  const runA = sous('alpha', a, home, 'Tell the other session to check its tests.')
  const doneB = await runB
  await writeFile(exitedMarker, '')
  const doneA = await runA
  return { a, b, doneA, doneB, home }
}

describe('sessions that find each other (two sous -p processes)', () => {
  it('A lists B, messages it with notify_when_idle; B reads it while busy; A hears when B goes idle', async () => {
    const { a, b, doneA, doneB, home } = await exchange(undefined, true)
    expect(doneB.code, doneB.stderr).toBe(0)
    expect(doneA.code, doneA.stderr).toBe(0)
    expect(a.failures).toEqual([])
    expect(b.failures).toEqual([])
    // The listing names this session and B (not A itself).
    const listing = sent(a.requests[1]!)
    expect(listing).toMatch(/This session is alpha-[0-9a-f]{2} \[[0-9a-f]{6}\]/)
    expect(listing).toMatch(/- beta-[0-9a-f]{2} \[[0-9a-f]{6}\] — Sous session on this machine, busy now/)
    // B got the message with the request after its Bash call, framed with A's address.
    expect(sent(b.requests[1]!)).toMatch(/<cross-session-message from=\\"alpha-[0-9a-f]{2} \[[0-9a-f]{6}\]\\">\\nPlease check whether the tests pass over there./)
    // A's send was told it subscribed; its request after the Bash call carries B's idle notice.
    expect(sent(a.requests[2]!)).toContain('You are subscribed to one [Cross-session idle notice]')
    expect(sent(a.requests[3]!)).toMatch(/\[Cross-session idle notice\] \\"beta-[0-9a-f]{2}\\", which you asked to be notified about, (is idle now|has exited)/)
    // Both sessions took their entries away when they closed.
    expect(await readdir(join(home, 'peers', 'sessions'))).toEqual([])
  }, 90_000)

  it('a session that refuses: the message never reaches B, A gets a delivery notice and no idle subscription', async () => {
    const { a, b, doneA, doneB } = await exchange('refuse', true)
    expect(doneB.code, doneB.stderr).toBe(0)
    expect(doneA.code, doneA.stderr).toBe(0)
    expect(a.failures).toEqual([])
    expect(b.requests.map(sent).join('')).not.toContain('Please check whether the tests pass')
    const after = sent(a.requests[3]!)
    expect(after).toMatch(/\[Cross-session delivery notice\] \\"beta-[0-9a-f]{2}\\" refused your message/)
    expect(after).toContain('is not holding your idle subscription')
    expect(after).not.toContain('which you asked to be notified about, is idle now')
  }, 90_000)

  it('a session that holds: the message waits for B\'s user (B\'s model never reads it), A is told it is held', async () => {
    const { a, b, doneA, doneB } = await exchange('hold', false)
    expect(doneB.code, doneB.stderr).toBe(0)
    expect(doneA.code, doneA.stderr).toBe(0)
    expect(a.failures).toEqual([])
    expect(b.requests.map(sent).join('')).not.toContain('Please check whether the tests pass')
    expect(sent(a.requests[3]!)).toMatch(/\[Cross-session delivery notice\] \\"beta-[0-9a-f]{2}\\" is holding your message for its user/)
  }, 90_000)
})

describe('the registry drops what is stale', () => {
  it('an entry whose process is gone is not listed and is removed', async () => {
    const { listPeers, publishPeer, peersDir } = await import('../../src/main/store/peers/peer-registry')
    const root = peersDir(join(dir, 'sous'))
    const base = { ref: 'abcdef', name: 'x-ab', projectPath: dir, state: 'idle' as const, startedAt: 1, updatedAt: 1 }
    await publishPeer(root, { ...base, sessionId: 'live-one', pid: process.pid })
    // A child that has exited: its pid names no process of ours any more.
    const gone = spawn(process.execPath, ['-e', '0'])
    const pid = gone.pid!
    await new Promise((resolve) => gone.once('close', resolve))
    await publishPeer(root, { ...base, sessionId: 'dead-one', pid })
    await writeFile(join(root, 'sessions', 'broken.json'), '{"sessionId": "half')
    const listed = await listPeers(root)
    expect(listed.map((entry) => entry.sessionId)).toEqual(['live-one'])
    expect((await readdir(join(root, 'sessions'))).sort()).toEqual(['broken.json', 'live-one.json'])
  })
})

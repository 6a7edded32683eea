import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../../test/mcp/fixture'
import type { EventPayload } from '../../../shared/ipc/contract'
import { createEventHub, type EventHub } from '../../base/event-hub'
import { grantTrust, trustStatus } from '../../governance/trust/trust'
import { NodePtyService } from '../../pty/node-pty-service'
import { createSessionRuntime, type SessionRuntime } from '../../runtime/runtime'

// The runtime as the desktop builds it (answerer: 'interactive'): real MCP servers, the Extensions
// overview, approval of a project server, restart after a crash, and `mcp.status` events.
let base: string
let project: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let sousHome: string
const statuses: Array<EventPayload<'mcp.status'>> = []

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-extensions-'))
  project = join(base, 'project')
  sousHome = join(base, 'sous-home')
  await mkdir(project)
  statuses.length = 0
  hub = createEventHub()
  hub.subscribe((channel, payload) => channel === 'mcp.status' && statuses.push(payload as EventPayload<'mcp.status'>))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: sousHome,
    env: { ANTHROPIC_API_KEY: 'test', PATH: process.env['PATH'] },
    hub,
    pty,
    permissionMode: 'default',
    answerer: 'interactive',
    userHome: join(base, 'home'),
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  await rm(base, { recursive: true, force: true })
})

async function file(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('the Extensions overview and MCP server controls', () => {
  it('lists configuration, skills, slash commands and problems for a project with no session, starting nothing', async () => {
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry(), bad: { url: 'https://x' } } }))
    await file(join(project, '.claude/skills/deploy/SKILL.md'), '---\ndescription: Deploys\nargument-hint: <env>\n---\nDeploy $0.')
    await file(join(project, '.claude/skills/lore/SKILL.md'), '---\ndescription: Background\nuser-invocable: false\n---\nLore.')
    await file(join(base, 'home/.claude/commands/review.md'), '---\ndescription: Reviews\n---\nReview.')
    await file(join(project, '.claude/commands/broken.md'), '---\ndescription: "x\n---\n')
    const overview = await runtime.extensions.overview(project)
    expect(overview.servers).toEqual([expect.objectContaining({ name: 'fixture', scope: 'project', transport: 'stdio', status: 'untrusted', tools: [] })])
    expect(overview.skills.map((skill) => [skill.name, skill.modelOnly])).toEqual([
      ['deploy', false],
      ['lore', true],
    ])
    expect(overview.slashCommands).toEqual([
      expect.objectContaining({ name: 'deploy', kind: 'skill', source: 'project', argumentHint: '<env>' }),
      expect.objectContaining({ name: 'review', kind: 'command', source: 'user', description: 'Reviews' }),
    ])
    expect(overview.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('has a "url" but no "type"'), expect.stringContaining('invalid YAML frontmatter')])
  })

  it('holds a new project server until approved, then runs it; restarts it after a crash; reports every change', async () => {
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }))
    const { sessionId } = await runtime.sessions.create(project)
    expect((await runtime.extensions.overview(project)).servers[0]).toMatchObject({ status: 'untrusted' })
    await expect(runtime.extensions.approveServer(project, 'fixture')).rejects.toThrow('the project folder is not trusted')
    // The trust step: the folder is trusted as it is, and the open project's servers are told.
    expect(grantTrust(project, sousHome, trustStatus(project, sousHome).fingerprint).ok).toBe(true)
    runtime.extensions.trustChanged(project)
    expect((await runtime.extensions.overview(project)).servers[0]).toMatchObject({ status: 'needs-approval' })
    await runtime.extensions.approveServer(project, 'fixture')
    const connected = (await runtime.extensions.overview(project)).servers[0]!
    expect(connected.status).toBe('connected')
    expect(connected.tools.find((tool) => tool.name === 'mcp__fixture__echo')).toMatchObject({ readOnly: true, destructive: false, schemaTokens: expect.any(Number) })
    expect(connected.schemaTokens).toBeGreaterThan(50)
    expect(connected.prompts).toEqual([{ command: 'mcp__fixture__review', description: 'Review a file.', arguments: [{ name: 'file', required: true }, { name: 'focus', required: false }] }])
    expect((await runtime.extensions.overview(project)).slashCommands).toContainEqual(expect.objectContaining({ name: 'mcp__fixture__review', kind: 'mcp-prompt', argumentHint: '<file> [focus]' }))
    await until(() => statuses.some((event) => event.projectPath === project && event.servers[0]?.status === 'connected'))

    // Crash it through its own tool, then restart it from the overview's control.
    await runtime.mcp.peek(project)!.get('fixture')!.callTool('crash', {}, new AbortController().signal).catch(() => undefined)
    await until(() => statuses.at(-1)?.servers[0]?.status === 'failed')
    expect(statuses.at(-1)!.servers[0]!.logs.some((line) => line.text === 'fixture: crashing on purpose')).toBe(true)
    await runtime.extensions.restartServer(project, 'fixture')
    expect((await runtime.extensions.overview(project)).servers[0]!.status).toBe('connected')
    await expect(runtime.extensions.restartServer(project, 'nope')).rejects.toThrow('no MCP server named "nope"')

    // The servers stop with the project's last session.
    await runtime.sessions.delete(sessionId)
    expect(runtime.mcp.peek(project)).toBeUndefined()
    await expect(runtime.extensions.restartServer(project, 'fixture')).rejects.toThrow(/No session is open/)
  })
})

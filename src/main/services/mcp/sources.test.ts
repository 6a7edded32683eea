import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseMcpServers } from './config'
import { expandVariables } from './expand'
import { PLACEHOLDER_IGNORE_FILE, PLACEHOLDER_IGNORE_TEXT } from '../../base/placeholder-folder'
import { loadMcpSources } from './sources'

describe('${VAR} expansion', () => {
  it('expands set variables and defaults, and keeps unset ones as written', () => {
    const env = { HOST: 'example.com', EMPTY: '' }
    expect(expandVariables('https://${HOST}/mcp', env)).toEqual({ value: 'https://example.com/mcp', missing: [] })
    expect(expandVariables('${PORT:-8080} ${EMPTY:-fallback} [${EMPTY}]', env)).toEqual({ value: '8080 fallback []', missing: [] })
    expect(expandVariables('Bearer ${TOKEN}', env)).toEqual({ value: 'Bearer ${TOKEN}', missing: ['TOKEN'] })
    expect(expandVariables('$HOST ${not-a-var}', env).value).toBe('$HOST ${not-a-var}')
  })
})

describe('parseMcpServers', () => {
  const parse = (servers: unknown) => parseMcpServers(servers, { scope: 'project', file: '/p/.mcp.json' }, { KEY: 'k' })

  it('reads stdio, http, streamable-http and sse entries and expands every documented field', () => {
    const { servers, problems } = parse({
      local: { command: '${KEY}-bin', args: ['--key', '${KEY}'], env: { A: '${KEY}' } },
      remote: { type: 'streamable-http', url: 'https://x/${KEY}', headers: { Authorization: 'Bearer ${KEY}' }, timeout: 5000 },
      legacy: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
    })
    expect(problems).toEqual([])
    expect(servers.map((server) => server.config)).toEqual([
      { type: 'stdio', command: 'k-bin', args: ['--key', 'k'], env: { A: 'k' } },
      { type: 'http', url: 'https://x/k', headers: { Authorization: 'Bearer k' }, timeout: 5000 },
      { type: 'sse', url: 'http://127.0.0.1:1/sse', headers: {} },
    ])
  })

  it('reports what cannot load, entry by entry, and loads the rest', () => {
    const { servers, problems } = parse({
      nourl: { url: 'https://x' },
      socket: { type: 'ws', url: 'ws://x' },
      workspace: { command: 'x' },
      'a__b': { command: 'x' },
      nocommand: { args: [] },
      padded: { command: 'x ', env: { TOKEN: 'abc\n' } },
    })
    expect(servers.map((server) => server.name)).toEqual(['padded'])
    expect(servers[0]!.warnings).toEqual(['leading or trailing whitespace in: command, env.TOKEN'])
    expect(problems.map((problem) => problem.message)).toEqual([
      'MCP server "nourl" has a "url" but no "type"; add "type": "http" (or "sse") to this entry',
      'MCP server "socket" uses the WebSocket transport, which Sous does not support',
      '"workspace" is reserved for a built-in server; rename it',
      'server name "a__b" must not contain "__" (tool names are mcp__<server>__<tool>)',
      expect.stringMatching(/^MCP server "nocommand": command: /),
    ])
    expect(parse([1]).problems[0]!.message).toMatch(/must be an object/)
  })

  it('fingerprints an entry independently of key order', () => {
    const a = parse({ s: { command: 'x', args: ['1'] } }).servers[0]!
    const b = parse({ s: { args: ['1'], command: 'x' } }).servers[0]!
    const c = parse({ s: { args: ['2'], command: 'x' } }).servers[0]!
    expect(a.fingerprint).toBe(b.fingerprint)
    expect(a.fingerprint).not.toBe(c.fingerprint)
  })
})

describe('loadMcpSources', () => {
  let root: string
  let project: string
  let home: string
  let sous: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'sous-mcp-sources-'))
    project = join(root, 'project')
    home = join(root, 'home')
    sous = join(root, 'sous')
    await Promise.all([mkdir(project), mkdir(home), mkdir(sous)])
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  const server = (command: string) => ({ command })

  it('takes each name from the highest source: --mcp-config, local, project, Sous user, Claude Code user', async () => {
    await writeFile(join(home, '.claude.json'), JSON.stringify({ mcpServers: { a: server('cc-user'), b: server('cc-user'), e: server('cc-user') }, projects: { [project]: { mcpServers: { a: server('local') } } } }))
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { a: server('project'), b: server('project'), c: server('project') } }))
    await writeFile(join(sous, 'settings.json'), JSON.stringify({ mcpServers: { d: server('sous-user'), e: server('sous-user') } }))
    const cli = join(root, 'cli.json')
    await writeFile(cli, JSON.stringify({ mcpServers: { c: server('cli-file') } }))
    const loaded = loadMcpSources({ projectRoot: project, userHome: home, sousHome: sous, env: {}, cliConfigs: [cli, '{"mcpServers":{"f":{"command":"cli-text"}}}'] })
    const picked = Object.fromEntries(loaded.servers.map((s) => [s.name, [s.scope, (s.config as { command: string }).command]]))
    expect(picked).toEqual({
      a: ['local', 'local'],
      b: ['project', 'project'],
      c: ['cli', 'cli-file'],
      d: ['user', 'sous-user'],
      e: ['user', 'sous-user'],
      f: ['cli', 'cli-text'],
    })
    expect(loaded.problems).toEqual([])
  })

  it('--strict-mcp-config uses only --mcp-config servers', async () => {
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { p: server('project') } }))
    const loaded = loadMcpSources({ projectRoot: project, userHome: home, sousHome: sous, env: {}, cliConfigs: ['{"mcpServers":{"only":{"command":"x"}}}'], strict: true })
    expect(loaded.servers.map((s) => s.name)).toEqual(['only'])
  })

  it('reports a broken file and still loads the others', async () => {
    await writeFile(join(project, '.mcp.json'), '{ "mcpServers": { broken')
    await writeFile(join(sous, 'settings.json'), JSON.stringify({ mcpServers: { fine: server('x') } }))
    const loaded = loadMcpSources({ projectRoot: project, userHome: home, sousHome: sous, env: {}, cliConfigs: [join(root, 'missing.json')] })
    expect(loaded.servers.map((s) => s.name)).toEqual(['fine'])
    expect(loaded.problems).toEqual([
      { file: join(root, 'missing.json'), message: expect.stringMatching(/^could not be read: ENOENT/) },
      { file: join(project, '.mcp.json'), message: expect.stringMatching(/is not valid JSON .*its MCP servers were not loaded/) },
    ])
  })

  it("takes the sandbox's placeholder folder at .mcp.json for no file, and any other folder for one that cannot be read", async () => {
    await mkdir(join(project, '.mcp.json'))
    await writeFile(join(project, '.mcp.json', PLACEHOLDER_IGNORE_FILE), PLACEHOLDER_IGNORE_TEXT)
    const options = { projectRoot: project, userHome: home, sousHome: sous, env: {} }
    expect(loadMcpSources(options).problems).toEqual([])
    await writeFile(join(project, '.mcp.json', 'other'), 'x')
    expect(loadMcpSources(options).problems).toEqual([{ file: join(project, '.mcp.json'), message: expect.stringMatching(/^could not be read: EISDIR/) }])
  })

  it('reads approval choices; a committed project settings file can disable but never enable', async () => {
    await mkdir(join(project, '.claude'))
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ['x'], disabledMcpjsonServers: ['bad'] }))
    await writeFile(join(project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['mine'] }))
    const { choices } = loadMcpSources({ projectRoot: project, userHome: home, sousHome: sous, env: {} })
    expect(choices).toEqual({ disabled: new Set(['bad']), enabled: new Set(['mine']), enableAll: false })
  })
})

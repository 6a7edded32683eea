import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMcpServer, commandExists } from './add-server'
import { parseMcpServers } from './config'

let dir: string
const env = { PATH: process.env.PATH }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-mcp-add-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('adding an MCP server from the form', () => {
  it('writes stdio and http servers under mcpServers, keeping the rest of the file, in a shape the loader reads', async () => {
    const file = join(dir, 'settings.json')
    await writeFile(file, JSON.stringify({ sous: { theme: 'dark' }, mcpServers: { old: { command: 'node' } } }))
    addMcpServer(file, 'everything', { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'x' } }, { env, cwd: dir })
    addMcpServer(file, 'remote', { type: 'http', url: 'https://mcp.example.test/mcp' }, { env, cwd: dir })
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.sous).toEqual({ theme: 'dark' })
    expect(written.mcpServers).toEqual({
      old: { command: 'node' },
      everything: { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'x' } },
      remote: { type: 'http', url: 'https://mcp.example.test/mcp' },
    })
    const parsed = parseMcpServers(written.mcpServers, { scope: 'user', file }, {})
    expect(parsed.problems).toEqual([])
    expect(parsed.servers.map((server) => [server.name, server.config.type])).toEqual([
      ['old', 'stdio'],
      ['everything', 'stdio'],
      ['remote', 'http'],
    ])
  })

  it('creates a missing file with the mode asked for', async () => {
    const file = join(dir, 'project', '.mcp.json')
    addMcpServer(file, 'events', { type: 'sse', url: 'http://127.0.0.1:9/sse' }, { env, cwd: dir, mode: 0o644 })
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ mcpServers: { events: { type: 'sse', url: 'http://127.0.0.1:9/sse' } } })
    expect((await stat(file)).mode & 0o777).toBe(0o644)
  })

  it('refuses before writing: a missing command, a non-http URL, a taken name, a file that is not JSON', async () => {
    const file = join(dir, 'refuse.json')
    const text = '{ "mcpServers": { "taken": { "command": "node" } } }'
    await writeFile(file, text)
    const refused = (name: string, server: Parameters<typeof addMcpServer>[2]) => {
      try {
        addMcpServer(file, name, server, { env, cwd: dir })
        return 'written'
      } catch (error) {
        return (error as Error).message
      }
    }
    expect(refused('a', { type: 'stdio', command: 'no-such-command-sous-test', args: [], env: {} })).toMatch(/^No such command: no-such-command-sous-test/)
    expect(refused('b', { type: 'http', url: 'file:///etc/passwd' })).toBe('Not an http(s) URL: file:///etc/passwd')
    expect(refused('c', { type: 'sse', url: 'not a url' })).toBe('Not an http(s) URL: not a url')
    expect(refused('taken', { type: 'stdio', command: 'node', args: [], env: {} })).toMatch(/already has a server named taken/)
    expect(await readFile(file, 'utf8')).toBe(text)
    await writeFile(file, '{ broken')
    expect(refused('d', { type: 'stdio', command: 'node', args: [], env: {} })).toMatch(/is not valid JSON/)
    expect(await readFile(file, 'utf8')).toBe('{ broken')
  })

  it("refuses a project's .mcp.json that is a link elsewhere: nothing is read from its target or written", async () => {
    const secret = join(dir, 'elsewhere.json')
    await writeFile(secret, JSON.stringify({ auths: { registry: 'token-123' } }))
    const project = await mkdtemp(join(dir, 'project-'))
    const link = join(project, '.mcp.json')
    await symlink(secret, link)
    expect(() => addMcpServer(link, 'x', { type: 'http', url: 'https://mcp.example.test/mcp' }, { env, cwd: project, plainFileOnly: true })).toThrow(/not a plain file/)
    expect(JSON.parse(await readFile(secret, 'utf8'))).toEqual({ auths: { registry: 'token-123' } })
    expect((await readFile(link, 'utf8')).includes('mcpServers')).toBe(false)
  })

  it('finds commands by path (executable files only) and on PATH', async () => {
    const script = join(dir, 'server.sh')
    await writeFile(script, '#!/bin/sh\n')
    expect(commandExists(script, env, dir)).toBe(false)
    await chmod(script, 0o755)
    expect(commandExists(script, env, dir)).toBe(true)
    expect(commandExists('./server.sh', env, dir)).toBe(true)
    expect(commandExists('sh', env, dir)).toBe(true)
    expect(commandExists('sh', { PATH: '' }, dir)).toBe(false)
  })
})

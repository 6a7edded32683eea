import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../../../test/support/remote-host'
import { readFrame, type Frame } from './frames'
import { serveLocalMcp } from './local-mcp'
import { createMcpTunnel } from './mcp-tunnel'
import { createTransport } from '../../services/mcp/transports'
import * as sdk from '../../services/mcp/sdk'
import { Client } from '../../services/mcp/sdk'

// Both ends of the MCP tunnel around a real stdio server (test/mcp/fixture-server.mjs), every
// frame serialized and read back with the protocol's schema as the channel does. "Dropping the
// channel" is what stdio-host does when the pipe ends: failAll on the host's side.
const FIXTURE = join(ROOT, 'test', 'mcp', 'fixture-server.mjs')

function wire(names: string[] = ['laptop']) {
  let up = true
  const carry = (frame: Frame, to: (frame: Frame) => boolean): boolean => {
    if (!up) return false
    const read = readFrame(JSON.stringify(frame))
    if (!read.ok) throw new Error(read.message)
    setImmediate(() => to(read.frame))
    return true
  }
  const host = createMcpTunnel((frame) => carry(frame, (f) => local.onFrame(f)))
  const local = serveLocalMcp(
    {
      names,
      open: async (name, hooks) => createTransport(sdk, name, { type: 'stdio', command: process.execPath, args: [FIXTURE], env: {} }, { projectRoot: ROOT, childEnv: { PATH: process.env['PATH'] ?? '' }, ...hooks }),
    },
    (frame) => carry(frame, (f) => host.onFrame(f)),
  )
  host.offer(names)
  return { host, local, drop: () => ((up = false), host.failAll('the connection to the local Sous closed'), local.closeAll()) }
}

describe('the MCP tunnel', () => {
  it('carries a real server’s handshake, tool list and calls', async () => {
    const { host, local } = wire()
    const ends: string[] = []
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(host.transport('laptop', (end) => ends.push(end.gone)))
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo')
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] })
    await client.close()
    local.closeAll()
    expect(ends).toEqual([])
  }, 30_000)

  it('a dropped channel fails a call in flight at once with why, never a hang', async () => {
    const { host, drop } = wire()
    const ends: string[] = []
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(host.transport('laptop', (end) => ends.push(end.gone)))
    const hanging = client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 60_000 })
    setTimeout(drop, 200)
    const started = Date.now()
    await expect(hanging).rejects.toThrow(/Connection closed/)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(ends).toEqual(['the connection to the local Sous closed'])
  }, 30_000)

  it('a name the client did not offer is refused by the client, whatever the host asks', async () => {
    const { host } = wire([])
    host.offer(['intruder'])
    const ends: string[] = []
    const client = new Client({ name: 'test', version: '1' })
    await expect(client.connect(host.transport('intruder', (end) => ends.push(end.gone)), { timeout: 10_000 })).rejects.toThrow()
    expect(ends[0]).toContain('runs no MCP server named "intruder"')
  }, 30_000)

  it('a host cannot make this machine start more than 32 local servers at once', () => {
    const sent: Frame[] = []
    const local = serveLocalMcp({ names: ['laptop'], open: () => new Promise(() => {}) }, (frame) => sent.push(frame) > 0)
    for (let i = 1; i <= 33; i++) local.onFrame({ t: 'mcp.open', id: `p${i}`, server: 'laptop' })
    expect(sent).toEqual([{ t: 'mcp.closed', id: 'p33', message: 'this Sous already runs 32 local MCP servers for the remote' }])
  })

  it('frames with a bad server name or a message that is not JSON-RPC fail the schema', () => {
    expect(readFrame(JSON.stringify({ t: 'mcp.open', id: 'p1', server: 'a__b' })).ok).toBe(false)
    expect(readFrame(JSON.stringify({ t: 'mcp.send', id: 'p1', message: { jsonrpc: '1.0' } })).ok).toBe(false)
    expect(readFrame(JSON.stringify({ t: 'hello', role: 'client', protocol: 1, version: 'x', localMcpServers: Array.from({ length: 65 }, (_, i) => `s${i}`) })).ok).toBe(false)
  })
})

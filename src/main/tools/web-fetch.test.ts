import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startModelServer, textReply } from '../../../test/model-server'
import { AnthropicModelService, createAskModel, resolveModelConfig } from '../services/model'
import { runToolCall } from './run-tool'
import { makeTestWorld } from '../../../test/support/tools'
import { parseUrl, webFetchTool } from './web-fetch'

describe('WebFetch', () => {
  let server: Server
  let base: string
  let world: ReturnType<typeof makeTestWorld>

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end('<html><head><style>p{}</style><script>evil()</script></head><body><h1>Title</h1><p>Some <b>bold</b> text.</p><ul><li>one</li></ul></body></html>')
      } else if (req.url === '/same') {
        res.writeHead(301, { location: '/page' })
        res.end()
      } else if (req.url === '/away') {
        res.writeHead(302, { location: 'https://example.org/elsewhere' })
        res.end()
      } else if (req.url === '/long') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`${'a'.repeat(100_000)}${'b'.repeat(30_000)}`)
      } else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        const chunk = Buffer.alloc(1024 * 1024, 'a')
        for (let i = 0; i < 11; i++) res.write(chunk)
        res.end()
      } else {
        res.writeHead(404)
        res.end('nope')
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  beforeEach(() => {
    world = makeTestWorld()
  })
  afterEach(() => world.cleanup())

  it('offset (Claude Code 2.1.328) reads on through a page too long for one call', async () => {
    const first = String((await runToolCall(webFetchTool, { url: `${base}/long`, prompt: 'all' }, world.ctx())).content)
    expect(first).toContain('call WebFetch again with offset: 100000')
    expect(first).not.toContain('bbbb')
    const rest = String((await runToolCall(webFetchTool, { url: `${base}/long`, prompt: 'all', offset: 100_000 }, world.ctx())).content)
    expect(rest).toContain('[Page text from character 100000 of 130000]')
    expect(rest).toContain('b'.repeat(30_000))
    expect(rest).not.toContain('aaaa')
    expect(rest).not.toContain('Content truncated')
    const past = await runToolCall(webFetchTool, { url: `${base}/long`, prompt: 'all', offset: 200_000 }, world.ctx())
    expect(past.isError).toBe(true)
  })

  it('converts HTML to Markdown (no model: returns it)', async () => {
    const result = await runToolCall(webFetchTool, { url: `${base}/page`, prompt: 'What is the title?' }, world.ctx())
    const text = String(result.content)
    expect(text).toContain('# Title')
    expect(text).toContain('Some **bold** text.')
    expect(text).not.toContain('evil')
  })

  it('answers the prompt with the small model, through the real model service', async () => {
    const models = await startModelServer({ scenario: [textReply('The title is "Title".')] })
    try {
      const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: models.url })
      if (!config.ok) throw new Error(config.error.message)
      const ctx = world.ctx({ askModel: createAskModel(new AnthropicModelService(config.value)) })
      const result = await runToolCall(webFetchTool, { url: `${base}/page`, prompt: 'What is the title?' }, ctx)
      expect(result.content).toBe('The title is "Title".')
      const sent = JSON.stringify(models.requests[0]?.body)
      expect(sent).toContain('# Title')
      expect(sent).toContain('What is the title?')
    } finally {
      await models.close()
    }
  })

  it('follows same-host redirects and reports cross-host ones', async () => {
    expect(String((await runToolCall(webFetchTool, { url: `${base}/same`, prompt: 'x' }, world.ctx())).content)).toContain('# Title')
    const away = String((await runToolCall(webFetchTool, { url: `${base}/away`, prompt: 'x' }, world.ctx())).content)
    expect(away).toContain('REDIRECT DETECTED')
    expect(away).toContain('https://example.org/elsewhere')
  })

  it('reports HTTP errors, oversized bodies and bad URLs', async () => {
    const missing = await runToolCall(webFetchTool, { url: `${base}/missing`, prompt: 'x' }, world.ctx())
    expect(missing.isError).toBe(true)
    expect(String(missing.content)).toContain('404')
    expect(String((await runToolCall(webFetchTool, { url: `${base}/huge`, prompt: 'x' }, world.ctx())).content)).toContain('too large')
    expect(String((await runToolCall(webFetchTool, { url: 'file:///etc/passwd', prompt: 'x' }, world.ctx())).content)).toContain('Only http and https')
    expect(String((await runToolCall(webFetchTool, { url: 'not a url', prompt: 'x' }, world.ctx())).content)).toContain('Invalid URL')
  })

  it('upgrades http to https except for the local machine', () => {
    expect(String(parseUrl('http://example.com/a'))).toBe('https://example.com/a')
    expect(String(parseUrl('http://localhost:3000/'))).toBe('http://localhost:3000/')
    expect(String(parseUrl('http://127.0.0.1/'))).toBe('http://127.0.0.1/')
  })
})

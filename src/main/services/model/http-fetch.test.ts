import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { httpFetch } from './http-fetch'

let server: Server | undefined

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** A real loopback server answering with `handler`; resolves with its base URL. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('httpFetch', () => {
  it('sends the method, headers and body, and reads status, headers and text', async () => {
    let seen: { method?: string; type?: string; length?: string; body: string } = { body: '' }
    const url = await serve((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        seen = { method: request.method, type: request.headers['content-type'], length: request.headers['content-length'], body }
        response.writeHead(201, { 'X-Request-Id': 'req_1', 'Set-Cookie': 'a=1' }).end('{"ok":true}')
      })
    })
    const headers = new Headers({ 'Content-Type': 'application/json' })
    const response = await httpFetch(`${url}/v1/messages`, { method: 'POST', headers, body: '{"é":1}' })
    expect(seen).toEqual({ method: 'POST', type: 'application/json', length: String(Buffer.byteLength('{"é":1}')), body: '{"é":1}' })
    expect(response.status).toBe(201)
    expect(response.ok).toBe(true)
    expect(response.headers.get('x-request-id')).toBe('req_1')
    expect(response.url).toBe(`${url}/v1/messages`)
    expect(await response.json()).toEqual({ ok: true })
  })

  it('streams the body as byte chunks, and a failed status is not ok', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(529)
      response.write('event: a\n\n')
      setTimeout(() => response.end('event: b\n\n'), 20)
    })
    const response = await httpFetch(url, { headers: [['x-one', '1']] })
    expect(response.ok).toBe(false)
    expect(response.status).toBe(529)
    const chunks: string[] = []
    for await (const chunk of response.body) chunks.push(Buffer.from(chunk).toString())
    expect(chunks.join('')).toBe('event: a\n\nevent: b\n\n')
    expect(response.bodyUsed).toBe(true)
  })

  it('an abort before the answer rejects with an AbortError; one while the body streams ends its reading', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/slow') return // never answers
      response.writeHead(200)
      response.write('first')
    })
    const early = new AbortController()
    const pending = httpFetch(`${url}/slow`, { signal: early.signal })
    early.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await expect(httpFetch(url, { signal: early.signal })).rejects.toMatchObject({ name: 'AbortError' })

    const late = new AbortController()
    const response = await httpFetch(url, { signal: late.signal })
    const reading = (async () => {
      for await (const chunk of response.body) if (Buffer.from(chunk).toString() === 'first') late.abort()
    })()
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('a refused connection fails as the global fetch does, with the cause kept', async () => {
    const url = await serve(() => {})
    await new Promise<void>((resolve) => server!.close(() => resolve()))
    server = undefined
    const failure = await httpFetch(url).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TypeError)
    expect((failure as Error).message).toBe('fetch failed')
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED')
  })

  it('refuses other protocols', async () => {
    await expect(httpFetch('file:///etc/passwd')).rejects.toThrow(/unsupported protocol file:/)
  })
})

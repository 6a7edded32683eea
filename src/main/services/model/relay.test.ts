import { afterEach, describe, expect, it } from 'vitest'
import { startModelServer, textReply, type ModelServer } from '../../../../test/model-server'
import { createModelRelay, type RelaySink } from './relay'

let server: ModelServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function collect(): RelaySink & { result: Promise<{ status?: number; body: string; error?: string }> } {
  let status: number | undefined
  let body = ''
  let done!: (value: { status?: number; body: string; error?: string }) => void
  const result = new Promise<{ status?: number; body: string; error?: string }>((resolve) => (done = resolve))
  return {
    result,
    head: (code) => void (status = code),
    chunk: (text) => void (body += text),
    end: () => done({ ...(status !== undefined && { status }), body }),
    error: (message) => done({ ...(status !== undefined && { status }), body, error: message }),
  }
}

const body = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] })

describe('createModelRelay', () => {
  it('sends a Messages API request to the local endpoint with the local key, whatever credentials the remote put in', async () => {
    server = await startModelServer({ scenario: [textReply('relayed')] })
    const relay = createModelRelay({ env: { ANTHROPIC_API_KEY: 'LOCAL', ANTHROPIC_BASE_URL: server.url } })
    const sink = collect()
    await relay({ method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'REMOTE', authorization: 'Bearer REMOTE', 'x-custom': 'no' }, body, signal: new AbortController().signal }, sink)
    const result = await sink.result
    expect(result.status).toBe(200)
    expect(result.body).toContain('relayed')
    expect(server.requests[0]?.headers['x-api-key']).toBe('LOCAL')
    expect(server.requests[0]?.headers['authorization']).toBeUndefined()
    expect(server.requests[0]?.headers['x-custom']).toBeUndefined()
  })

  it('refuses anything but the Messages API, and answers 401 when there is no local key', async () => {
    const relay = createModelRelay({ env: { ANTHROPIC_API_KEY: 'LOCAL', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } })
    for (const path of ['/v1/models', '/v1/files', '/v1/messages/../files', '//evil.example/v1/messages', '/v1/messages?x=1']) {
      const sink = collect()
      await relay({ method: 'POST', path, headers: {}, body, signal: new AbortController().signal }, sink)
      expect((await sink.result).error).toContain('only Messages API requests')
    }
    const keyless = collect()
    await createModelRelay({ env: {} })({ method: 'POST', path: '/v1/messages', headers: {}, body, signal: new AbortController().signal }, keyless)
    expect(await keyless.result).toMatchObject({ status: 401 })
    expect((await keyless.result).body).toContain('No API key on the local machine')
  })
})

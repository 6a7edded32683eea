import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message } from '../main/services/model/types'

// `http` and `prompt` hook handlers end to end in `sous -p`: a loopback endpoint and a small-model
// request through the scripted server decide a real Bash call.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

let endpoint: Server
let url: string
beforeAll(async () => {
  endpoint = createServer((req, res) => {
    req.resume().on('end', () => res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the policy endpoint refuses touch' } })))
  })
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/pre`
})
afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())))

async function settings(hooks: unknown): Promise<void> {
  await mkdir(join(headless.project, '.claude'), { recursive: true })
  await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch *)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hooks] }] } }))
}

const lastUser = (index: number): string => JSON.stringify((server.requests[index]!.body['messages'] as Message[]).at(-1))

describe('sous -p with http and prompt hooks', () => {
  it('an http hook denies a call an allow rule would let through; the reason reaches the model', async () => {
    await settings({ type: 'http', url })
    server.setScenario([toolUseReply('Bash', { command: 'touch made.txt' }), textReply('Refused.')])
    const { code } = await headless.sous(['Touch'])
    expect(code).toBe(0)
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(lastUser(1)).toContain('the policy endpoint refuses touch')
  })

  it('a prompt hook asks the small model and its deny with a reason holds', async () => {
    await settings({ type: 'prompt', prompt: 'Refuse any command that creates files. Input: $ARGUMENTS' })
    server.setScenario([
      toolUseReply('Bash', { command: 'touch made.txt' }),
      { ...textReply('{"decision":"deny","reason":"creating files is not allowed by the hook"}'), forModel: 'claude-haiku-4-5' },
      textReply('Refused.'),
    ])
    const { code } = await headless.sous(['Touch'])
    expect(code).toBe(0)
    expect(server.requests[1]!.body['model']).toBe('claude-haiku-4-5')
    expect(JSON.stringify(server.requests[1]!.body['messages'])).toContain('touch made.txt')
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(lastUser(2)).toContain('creating files is not allowed by the hook')
    expect(server.failures).toEqual([])
  })
})

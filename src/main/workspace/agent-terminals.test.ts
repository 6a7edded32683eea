import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventChannel, EventPayload } from '../../shared/ipc/contract'
import { createCore, type Core } from '../core'
import type { Sender } from '../host/router'
import { APP_URL } from '../host/sender-policy'
import { NodePtyService } from '../pty/node-pty-service'
import { MemoryKeyStore } from '../secrets/memory-key-store'
import { createBashTool } from '../tools/bash'
import { runToolCall } from '../tools/run-tool'
import { makeTestWorld } from '../../../test/support/tools'

const app: Sender = { transport: 'electron', frameUrl: APP_URL }

describe('agent terminals', () => {
  let pty: NodePtyService
  let core: Core
  let world: ReturnType<typeof makeTestWorld>

  beforeEach(() => {
    pty = new NodePtyService({ killGraceMs: 300 })
    world = makeTestWorld('sous-agent-term-')
    core = createCore({ sousHome: world.root, transport: 'electron', keyStore: new MemoryKeyStore({}) })
  })
  afterEach(async () => {
    await core.dispose()
    await world.cleanup()
    await pty.dispose()
  })

  /** Every event of the hub, in order. */
  function record(): Array<{ channel: EventChannel; payload: unknown }> {
    const seen: Array<{ channel: EventChannel; payload: unknown }> = []
    core.events.subscribe((channel, payload) => seen.push({ channel, payload }))
    return seen
  }

  it("announces each Bash command, forwards its output, and takes the user's answer through pty.write", async () => {
    const seen = record()
    const bash = createBashTool({ pty })
    const answered = new Promise<void>((resolve) => {
      const stop = core.events.subscribe((channel, payload) => {
        if (channel !== 'pty.data' || !(payload as EventPayload<'pty.data'>).data.includes('Continue? [y/N]'))
          return
        stop()
        // The user types into the Agent terminal: the same request a user terminal uses.
        void core.router
          .invoke('pty.write', { id: (payload as EventPayload<'pty.data'>).id, data: 'y\r' }, app)
          .then(() => resolve())
      })
    })
    const ctx = world.ctx({
      sessionId: 'sess-1',
      onPtySpawn: (proc, command) => core.agentTerminals.attach('sess-1', proc, command),
    })
    const result = await runToolCall(bash, { command: 'read -p "Continue? [y/N] " a; echo "answer=$a"' }, ctx)
    await answered

    expect(result.isError).toBeFalsy()
    expect(JSON.stringify(result.content)).toContain('answer=y')
    const announced = seen.find((e) => e.channel === 'agent.terminal')
      ?.payload as EventPayload<'agent.terminal'>
    expect(announced).toMatchObject({
      sessionId: 'sess-1',
      command: 'read -p "Continue? [y/N] " a; echo "answer=$a"',
    })
    const output = seen
      .filter(
        (e) => e.channel === 'pty.data' && (e.payload as EventPayload<'pty.data'>).id === announced.ptyId,
      )
      .map((e) => (e.payload as EventPayload<'pty.data'>).data)
      .join('')
    expect(output).toContain('answer=y')
  })

  it('never lets the UI kill an agent PTY, and forgets it once it exits', async () => {
    const bash = createBashTool({ pty })
    let ptyId = ''
    let refused: unknown
    const ctx = world.ctx({
      onPtySpawn: (proc, command) => {
        core.agentTerminals.attach('sess-2', proc, command)
        ptyId = proc.id
        void core.router.invoke('pty.kill', { id: proc.id }, app).then((r) => (refused = r))
      },
    })
    const result = await runToolCall(bash, { command: 'echo done' }, ctx)
    expect(JSON.stringify(result.content)).toContain('done')
    await expect.poll(() => refused).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    await expect.poll(() => core.agentTerminals.get(ptyId)).toBeUndefined()
    expect(await core.router.invoke('pty.write', { id: ptyId, data: 'x' }, app)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
  })
})

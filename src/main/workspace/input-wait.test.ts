import { afterEach, describe, expect, it } from 'vitest'
import type { EventPayload } from '../../shared/ipc/contract'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import { createBashTool } from '../tools/bash'
import { runToolCall } from '../tools/run-tool'
import { makeTestWorld } from '../../../test/support/tools'
import { createAgentTerminals } from './agent-terminals'
import { readsTerminal } from './input-wait'

describe('a command waiting for input', () => {
  const pty = new NodePtyService({ killGraceMs: 300 })
  const world = makeTestWorld('sous-input-wait-')
  afterEach(async () => {
    await world.cleanup()
    await pty.dispose()
  })

  it.runIf(process.platform === 'linux')('is reported while a real command reads its terminal, and no longer once answered', async () => {
    const events = createEventHub()
    const terminals = createAgentTerminals(events, { inputWait: { quietMs: 300, everyMs: 100 } })
    const changes: Array<EventPayload<'agent.inputWait'>> = []
    events.subscribe((channel, payload) => {
      if (channel === 'agent.inputWait') {
        const change = payload as EventPayload<'agent.inputWait'>
        changes.push(change)
        // Waiting: the user answers through the PTY, as the Agent terminal would.
        if (change.waiting) terminals.get(change.ptyId)?.write('Ada\r')
      }
    })
    const ctx = world.ctx({ sessionId: 'sess-1', onPtySpawn: (proc, command) => terminals.attach('sess-1', proc, command) })
    const result = await runToolCall(createBashTool({ pty }), { command: 'sleep 0.5; read -p "Name? " name; echo "hello $name"' }, ctx)
    expect(JSON.stringify(result.content)).toContain('hello Ada')
    expect(changes.map((change) => change.waiting)).toEqual([true, false])
    expect(changes[0]).toMatchObject({ sessionId: 'sess-1', command: expect.stringContaining('read -p') })
  })

  it('reads the foreground group from /proc: asleep in a terminal read, or not', () => {
    const proc: Record<string, string> = {
      '/proc/10/stat': '10 (bash (x)) S 1 10 10 34816 42 4194560 0 0',
      '/proc/42/stat': '42 (cat) S 10 42 10 34816 42 0',
      '/proc/42/wchan': 'wait_woken',
      '/proc/11/stat': '11 (bash) S 1 11 11 34817 43 0',
      '/proc/43/stat': '43 (make) R 11 43 11 34817 43 0',
      '/proc/43/wchan': '0',
      // The sandbox: the foreground group is bubblewrap (waiting), the command below it reads.
      '/proc/20/stat': '20 (bwrap) S 1 20 20 34818 20 0',
      '/proc/20/wchan': 'do_wait',
      '/proc/20/task/20/children': '21 ',
      '/proc/21/stat': '21 (bash) S 20 21 21 0 -1 0',
      '/proc/21/wchan': 'wait_woken',
    }
    const read = (path: string) => {
      const text = proc[path]
      if (text === undefined) throw new Error(`ENOENT ${path}`)
      return text
    }
    expect(readsTerminal(10, read, 'linux')).toBe(true)
    expect(readsTerminal(11, read, 'linux')).toBe(false)
    expect(readsTerminal(12, read, 'linux')).toBe(false)
    expect(readsTerminal(20, read, 'linux')).toBe(true)
    expect(readsTerminal(10, read, 'darwin')).toBe(false)
  })
})

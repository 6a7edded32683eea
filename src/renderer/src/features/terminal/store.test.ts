import { beforeEach, describe, expect, it } from 'vitest'
import { neighbourAfterClose, nextShellTitle, useTerminals } from './store'

beforeEach(() => useTerminals.setState({ terminals: [], active: {}, searchRequests: {} }))

describe('terminal tabs', () => {
  it('gives each project an Agent terminal and a first shell, once', () => {
    const { ensureProject } = useTerminals.getState()
    ensureProject('/a')
    ensureProject('/a')
    ensureProject('/b')
    const { terminals, active } = useTerminals.getState()
    expect(terminals.map((t) => [t.projectPath, t.kind, t.title])).toEqual([
      ['/a', 'agent', 'Agent'],
      ['/a', 'shell', 'Terminal 1'],
      ['/b', 'agent', 'Agent'],
      ['/b', 'shell', 'Terminal 1'],
    ])
    expect(active['/a']).toBe(terminals[1]?.key)
  })

  it('numbers new shells with the lowest free number and selects them', () => {
    const { ensureProject, add, close } = useTerminals.getState()
    ensureProject('/a')
    const second = add('/a')
    add('/a')
    close(second)
    add('/a')
    expect(useTerminals.getState().terminals.map((t) => t.title)).toEqual([
      'Agent',
      'Terminal 1',
      'Terminal 3',
      'Terminal 2',
    ])
    expect(nextShellTitle(useTerminals.getState().terminals, '/other')).toBe('Terminal 1')
  })

  it('closing the selected tab selects its neighbour; the Agent terminal cannot be closed', () => {
    const { ensureProject, add, close, select } = useTerminals.getState()
    ensureProject('/a')
    const [agent, first] = useTerminals.getState().terminals
    const second = add('/a')
    select('/a', first!.key)
    expect(neighbourAfterClose(useTerminals.getState().terminals, first!.key)).toBe(second)
    close(first!.key)
    expect(useTerminals.getState().active['/a']).toBe(second)
    close(second)
    expect(useTerminals.getState().active['/a']).toBe(agent!.key)
    close(agent!.key)
    expect(useTerminals.getState().terminals).toHaveLength(1)
  })

  it("cycles through a project's tabs, wrapping around, and restarts an exited shell", () => {
    const { ensureProject, cycle, update, restart } = useTerminals.getState()
    ensureProject('/a')
    const [agent, first] = useTerminals.getState().terminals
    cycle('/a', 1)
    expect(useTerminals.getState().active['/a']).toBe(agent!.key)
    cycle('/a', -1)
    expect(useTerminals.getState().active['/a']).toBe(first!.key)
    update(first!.key, { status: 'exited', exitCode: 2 })
    restart(first!.key)
    expect(useTerminals.getState().terminals[1]).toMatchObject({
      status: 'starting',
      exitCode: null,
      generation: 1,
    })
  })
})

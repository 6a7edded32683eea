import { describe, expect, it } from 'vitest'
import type { View } from './shell'
import { viewCommands } from './view-commands'

const views: View[] = [
  { id: 'settings', placement: 'dialog', title: 'Settings', command: { title: 'Open settings', keys: { label: 'Ctrl+,', binding: { key: ',', mod: true } } }, render: () => null },
  { id: 'memory', placement: 'dialog', title: 'Memory', render: () => null },
  { id: 'sessions', placement: 'sidebar', title: 'Sessions', command: { title: 'Search sessions', focus: 'input[aria-label="Search sessions"]' }, render: () => null },
  { id: 'tasks', placement: 'sidebar', title: 'Tasks', render: () => null },
  { id: 'viewer', placement: 'overlay', render: () => null },
]

function run(hasProject: boolean) {
  const calls: string[] = []
  const commands = viewCommands(views, hasProject, { openDialog: (id) => calls.push(`open ${id}`), focus: (selector) => calls.push(`focus ${selector}`) })
  for (const command of commands) command.run()
  return { commands, calls }
}

describe('viewCommands', () => {
  it('gives every dialog and sidebar view a palette command, titled by the view unless it says otherwise', () => {
    const { commands, calls } = run(true)
    expect(commands.map((command) => [command.id, command.title, command.shortcut])).toEqual([
      ['view.settings', 'Open settings', 'Ctrl+,'],
      ['view.memory', 'Open Memory', undefined],
      ['view.sessions', 'Search sessions', undefined],
      ['view.tasks', 'Show Tasks', undefined],
    ])
    expect(commands[0]?.binding).toEqual({ key: ',', mod: true })
    expect(calls).toEqual([
      'open settings',
      'open memory',
      'focus input[aria-label="Search sessions"]',
      expect.stringMatching(/^focus \[aria-label="Tasks"\] /),
    ])
  })

  it('leaves sidebar views out while no project is open, and overlays out always', () => {
    expect(run(false).commands.map((command) => command.id)).toEqual(['view.settings', 'view.memory'])
  })
})

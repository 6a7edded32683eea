import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// The task panel: the agent's task tools show up live, the task in progress reaches the status
// bar, and the user's own changes go to disk, come back after a reload and reach the model.

test("the agent's TaskCreate and TaskUpdate show live, with dependencies and the task in progress", async ({ app, projectDir, modelServer }) => {
  const file = join(projectDir, 'NOTES.md')
  await modelServer.setScenario([
    // One call per reply: calls of one reply run concurrently, so their ids could come in any order.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_c1', name: 'TaskCreate', input: { subject: 'Write the parser', description: 'Tokens first', activeForm: 'Writing the parser' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_c2', name: 'TaskCreate', input: { subject: 'Test the parser', description: 'Edge cases' } }] } },
    {
      reply: {
        content: [
          { type: 'tool_use', id: 'toolu_u1', name: 'TaskUpdate', input: { taskId: '2', addBlockedBy: ['1'] } },
          { type: 'tool_use', id: 'toolu_u2', name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } },
        ],
      },
    },
    // The Write waits for approval, which holds the turn while the panel is checked.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: file, content: 'notes\n' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_u3', name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }] } },
    { reply: { content: [{ type: 'text', text: 'The parser is written.' }] } },
  ])
  await openByPath(app, projectDir)
  const panel = app.getByRole('region', { name: 'Tasks' })
  await expect(panel).toContainText('Tasks appear here once a conversation has started.')
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Write a parser, with tests')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const list = panel.getByRole('list', { name: 'Task list' })
  const first = list.getByRole('listitem', { name: 'Task #1 Write the parser' })
  const second = list.getByRole('listitem', { name: 'Task #2 Test the parser' })
  await expect(first.getByTestId('task-status')).toHaveText('In progress')
  await expect(first).toContainText('main')
  await expect(first).toContainText('Writing the parser…')
  // The dependency is drawn on the blocked task, as a link to its open blocker.
  const blocker = second.getByRole('button', { name: 'Waits for #1 Write the parser (not done yet)' })
  await expect(blocker).toBeVisible()
  await expect(first.getByRole('button', { name: 'Must finish before #2 Test the parser (pending)' })).toBeVisible()
  await expect(app.getByLabel('Status', { exact: true }).getByTestId('task-activity')).toHaveText('Writing the parser…')
  await expect(panel.getByLabel('0 of 2 done')).toBeVisible()
  // Following the link focuses the blocker.
  await blocker.click()
  await expect(first.getByRole('checkbox', { name: 'Done: #1 Write the parser' })).toBeFocused()

  await app.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Reject all' }).click()
  await expect(first.getByRole('checkbox', { name: 'Done: #1 Write the parser' })).toBeChecked()
  await expect(second.getByRole('button', { name: 'Waits for #1 Write the parser (done)' })).toBeVisible()
  await expect(panel.getByLabel('1 of 2 done')).toBeVisible()
  await expect(app.getByLabel('Status', { exact: true }).getByTestId('task-activity')).toHaveCount(0)
  await expect(chat.getByLabel('Assistant').last()).toContainText('The parser is written.')
  expect((await modelServer.recorded()).failures).toEqual([])
})

test('the user adds, edits, completes, reorders and deletes tasks; they survive a reload and the agent is told', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Ready.' }] } },
    { reply: { content: [{ type: 'text', text: 'I see your list.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('Let us plan the release')
  await message.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Ready.')

  const panel = app.getByRole('region', { name: 'Tasks' })
  const list = panel.getByRole('list', { name: 'Task list' })
  for (const subject of ['Bump the version', 'Write the changelog', 'Tag the release']) {
    await panel.getByRole('button', { name: 'Add task' }).click()
    const form = panel.getByRole('form', { name: 'New task' })
    await form.getByRole('textbox', { name: 'Subject' }).fill(subject)
    await form.getByRole('textbox', { name: 'Subject' }).press('Enter')
    await expect(list.getByRole('listitem', { name: new RegExp(`Task #\\d ${subject}`) })).toBeVisible()
  }

  // Edit: a new subject, and the form closes.
  await list.getByRole('button', { name: 'Edit #2 Write the changelog' }).click()
  const edit = panel.getByRole('form', { name: 'Edit task #2' })
  await edit.getByRole('textbox', { name: 'Subject' }).fill('Write the release notes')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit).toHaveCount(0)
  await expect(list.getByRole('listitem', { name: 'Task #2 Write the release notes' })).toBeVisible()

  // Complete with the checkbox, reorder with the keyboard (Alt+↑ on the row), delete.
  await list.getByRole('checkbox', { name: 'Done: #1 Bump the version' }).check()
  await expect(list.getByRole('listitem', { name: 'Task #1 Bump the version' }).getByTestId('task-status')).toHaveText('Completed')
  await list.getByRole('checkbox', { name: 'Done: #3 Tag the release' }).focus()
  await app.keyboard.press('Alt+ArrowUp')
  await expect(list.getByRole('listitem')).toHaveText([/Bump the version/, /Tag the release/, /Write the release notes/])
  await expect(list.getByRole('checkbox', { name: 'Done: #3 Tag the release' })).toBeFocused()
  await list.getByRole('button', { name: 'Move #1 Bump the version down' }).click()
  await expect(list.getByRole('listitem')).toHaveText([/Tag the release/, /Bump the version/, /Write the release notes/])
  await list.getByRole('button', { name: 'Delete #2 Write the release notes' }).click()
  await expect(list.getByRole('listitem')).toHaveText([/Tag the release/, /Bump the version/])

  // A reload loses nothing: open the session again and the list is there, in the user's order.
  await app.reload()
  await openByPath(app, projectDir)
  await app.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: 'Open session Let us plan the release' }).click()
  await expect(list.getByRole('listitem')).toHaveText([/Tag the release/, /Bump the version/])
  await expect(list.getByRole('checkbox', { name: 'Done: #1 Bump the version' })).toBeChecked()

  // The agent learns what the user changed with its next request, after what it already saw.
  await message.fill('What is left?')
  await message.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('I see your list.')
  const { requests, failures } = await modelServer.recorded()
  expect(failures).toEqual([])
  const messages = requests.at(-1)?.body['messages'] as Array<{ role: string; content: unknown }>
  const last = JSON.stringify(messages.at(-1))
  expect(last).toContain('What is left?')
  expect(last).toContain('they added task #1 \\"Bump the version\\"')
  expect(last).toContain('they edited task #2 \\"Write the changelog\\": renamed it to \\"Write the release notes\\"')
  expect(last).toContain('they moved task #3 \\"Tag the release\\" before #2')
  expect(last).toContain('they deleted task #2 \\"Write the release notes\\"')
  expect(JSON.stringify(messages.slice(0, -1))).not.toContain('task panel')
})

test('/tasks and the palette reach the task panel', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'tool_use', id: 'toolu_c', name: 'TaskCreate', input: { subject: 'Only task', description: 'x' } }] } }, { reply: { content: [{ type: 'text', text: 'Done.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('Make a task')
  await message.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Done.')
  const check = app.getByRole('region', { name: 'Tasks' }).getByRole('checkbox', { name: 'Done: #1 Only task' })
  await message.fill('/tasks')
  await message.press('Enter')
  await expect(check).toBeFocused()
  await message.focus()
  await app.keyboard.press('Control+Shift+P')
  await app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('task list')
  await app.keyboard.press('Enter')
  await expect(check).toBeFocused()
})

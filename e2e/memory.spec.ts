import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'
import { openMemoryBrowser, projectMemoryDir, setMemoryPreferences, typeBody, writeMemoryFile } from './support/memory'

// The memory browser against the real core: files in the project's memory folder (Claude Code's
// layout, under the app's temp HOME), the real extraction agent talking to the scripted model.

test.afterEach(async ({ sousHome }) => {
  await setMemoryPreferences(sousHome, { autoMemory: false, memoryWrites: 'undoable' })
})

test('create a memory with validation as you type, edit it, rename it, and delete it (asked first, undoable)', async ({ app, projectDir, sousHome }) => {
  await openByPath(app, projectDir)
  const dialog = await openMemoryBrowser(app)
  await expect(dialog.getByRole('list', { name: /Memories \(0\)/ })).toBeVisible()
  await dialog.getByRole('button', { name: 'New memory' }).click()

  const form = dialog.getByRole('form', { name: 'New memory' })
  const create = form.getByRole('button', { name: 'Create memory' })
  // Nothing typed yet: no errors, but nothing to create either.
  await expect(form.locator('.memory-editor__problem')).toHaveCount(0)
  await expect(form.getByRole('status')).toHaveText('')
  await expect(create).toBeDisabled()
  // A field's problem shows once it was edited.
  await form.getByLabel('Name').fill('x')
  await form.getByLabel('Name').fill('')
  await expect(form.getByText('A name is required.')).toBeVisible()
  await form.getByLabel('Name').fill('Use pnpm')
  await form.getByLabel('Type').selectOption('feedback')
  await form.getByLabel('Description').fill('Scripts run with pnpm here, never npm')
  await typeBody(app, dialog, 'Run scripts with pnpm.')
  // A feedback memory says why and how to apply it.
  await expect(form.getByText('A feedback memory needs **Why:** and **How to apply:** in its body.')).toBeVisible()
  await expect(create).toBeDisabled()
  await app.keyboard.press('Enter')
  await app.keyboard.type('**Why:** npm rewrote the lockfile.')
  await app.keyboard.press('Enter')
  await app.keyboard.type('**How to apply:** pnpm install, pnpm test.')
  await expect(form.getByRole('status')).toHaveText('Unsaved changes')
  await create.click()

  const memoryDir = projectMemoryDir(sousHome, projectDir)
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  const file = join(memoryDir, 'feedback_use_pnpm.md')
  expect(await readFile(file, 'utf8')).toBe(
    '---\nname: Use pnpm\ndescription: Scripts run with pnpm here, never npm\ntype: feedback\n---\n\nRun scripts with pnpm.\n**Why:** npm rewrote the lockfile.\n**How to apply:** pnpm install, pnpm test.\n',
  )
  expect(await readFile(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe('- [Use pnpm](feedback_use_pnpm.md) — Scripts run with pnpm here, never npm\n')
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })).toBeVisible()

  // Edit: a duplicate-free name, a one-line description; save.
  const editor = dialog.getByRole('form', { name: 'Memory Use pnpm' })
  await editor.getByLabel('Description').fill('Scripts run with pnpm, never npm or yarn')
  await editor.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  expect(await readFile(file, 'utf8')).toContain('description: Scripts run with pnpm, never npm or yarn\n')

  // Changed on disk while open: noticed before saving over it.
  await editor.getByLabel('Description').fill('My edit')
  await writeFile(file, (await readFile(file, 'utf8')).replace('Run scripts with pnpm.', 'Run every script with pnpm.'))
  await editor.getByRole('button', { name: 'Save' }).click()
  await expect(editor.getByRole('alert')).toContainText('This memory changed on disk since you opened it.')
  expect(await readFile(file, 'utf8')).toContain('Run every script with pnpm.')
  await editor.getByRole('button', { name: 'Load the version on disk' }).click()
  await expect(editor.getByLabel('Description')).toHaveValue('Scripts run with pnpm, never npm or yarn')

  // Rename: the name and the file follow.
  await editor.getByRole('button', { name: 'Rename…' }).click()
  const rename = dialog.getByRole('group', { name: 'Rename this memory' })
  await rename.getByLabel('New name').fill('pnpm only')
  await rename.getByRole('button', { name: 'Rename', exact: true }).click()
  await expect(dialog.getByRole('status').filter({ hasText: 'Renamed to feedback_pnpm_only.md.' })).toBeVisible()
  expect((await readdir(memoryDir)).sort()).toEqual(['MEMORY.md', 'feedback_pnpm_only.md'])
  const renamed = join(memoryDir, 'feedback_pnpm_only.md')
  expect(await readFile(renamed, 'utf8')).toContain('name: pnpm only\n')

  // Delete asks first; the deletion can be undone.
  const open = dialog.getByRole('form', { name: 'Memory pnpm only' })
  await open.getByRole('button', { name: 'Delete…' }).click()
  const confirm = dialog.getByRole('alertdialog', { name: 'Delete this memory?' })
  await expect(confirm).toContainText('Delete “pnpm only”?')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  expect(await readdir(memoryDir)).toContain('feedback_pnpm_only.md')
  await open.getByRole('button', { name: 'Delete…' }).click()
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(dialog.getByRole('list', { name: /Memories \(0\)/ })).toBeVisible()
  expect(await readdir(memoryDir)).toEqual(['MEMORY.md'])
  await dialog.getByRole('status').filter({ hasText: 'Deleted “pnpm only”.' }).getByRole('button', { name: 'Undo' }).click()
  await expect(dialog.getByRole('listitem').filter({ hasText: 'pnpm only' })).toBeVisible()
  expect(await readFile(renamed, 'utf8')).toContain('Run every script with pnpm.')
})

test('a file another tool wrote badly is listed with its problem; the index shows what the model sees', async ({ app, projectDir, sousHome }) => {
  const memoryDir = projectMemoryDir(sousHome, projectDir)
  await writeMemoryFile(memoryDir, 'project_release.md', { name: 'Release train', description: 'Releases leave on Thursdays', type: 'project', body: 'Cut the branch on Wednesday 2026-03-04.' })
  await writeFile(join(memoryDir, 'debugging.md'), '# Debugging\n\nStart the API with --inspect.\n')
  await openByPath(app, projectDir)
  const dialog = await openMemoryBrowser(app)
  const broken = dialog.getByRole('listitem').filter({ hasText: 'debugging.md' })
  await expect(broken).toContainText('The file has no frontmatter')
  await dialog.getByRole('button', { name: 'Index as the model sees it' }).click()
  const index = dialog.getByRole('region', { name: 'Index as the model sees it' })
  await expect(index.getByLabel('Memory section of the system prompt')).toContainText('- [Release train](project_release.md) — Releases leave on Thursdays')
  await expect(index.getByLabel('Memory section of the system prompt')).toContainText('- [debugging.md](debugging.md) — (not a valid memory')
  await expect(index).toContainText('2 of 200 lines')
  await expect(index).toContainText("Claude Code's auto-memory folder")
})

test('a memory the agent writes after a turn appears live, highlighted, and can be undone', async ({ app, projectDir, sousHome, modelServer }) => {
  await setMemoryPreferences(sousHome, { autoMemory: true })
  const memory = {
    scope: 'project',
    name: 'Use pnpm',
    description: 'Scripts run with pnpm here, never npm',
    type: 'feedback',
    body: 'Run scripts with pnpm.\n\n**Why:** npm rewrote the lockfile.\n**How to apply:** pnpm install, pnpm test.',
  }
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Understood: pnpm from now on.' }] } },
    // The extraction agent's answer streams slowly, so the browser is open before it lands.
    { reply: { content: [{ type: 'text', text: JSON.stringify({ memories: [memory] }) }] }, chunkSize: 12, delayMs: 80 },
  ])
  // The server's record spans the worker's earlier specs: look only at this test's requests.
  const before = (await modelServer.recorded()).requests.length
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill("No, don't use npm in this repo: use pnpm.")
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant')).toContainText('Understood: pnpm from now on.')

  const dialog = await openMemoryBrowser(app)
  const row = dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })
  await expect(row).toContainText('written by the agent')
  const memoryDir = projectMemoryDir(sousHome, projectDir)
  expect(await readFile(join(memoryDir, 'feedback_use_pnpm.md'), 'utf8')).toContain('**How to apply:** pnpm install, pnpm test.')
  // The extraction read the conversation: its request ends with the instruction after the reply.
  const { requests, failures } = await modelServer.recorded()
  expect(failures.filter((failure) => failure.requestIndex >= before)).toEqual([])
  expect(JSON.stringify(requests.at(-1)?.body['messages'])).toContain('<memory-extraction>')

  await row.getByRole('button', { name: "Undo the agent's change to Use pnpm" }).click()
  await expect(dialog.getByRole('list', { name: /Memories \(0\)/ })).toBeVisible()
  expect(await readdir(memoryDir)).toEqual(['MEMORY.md'])
  await dialog.getByRole('button', { name: 'Close' }).click()
  // The turn says what was saved.
  await expect(chat.getByLabel('Memory')).toContainText('Saved to memory: Use pnpm (feedback)')
})

test('the browser is ready before its first open: its code and the memories are fetched at idle, and re-listed when it opens', async ({ app, host, projectDir, sousHome }) => {
  test.skip(host !== 'browser', 'Watches the browser host’s requests and WebSocket.')
  const memoryDir = projectMemoryDir(sousHome, projectDir)
  await writeMemoryFile(memoryDir, 'user_tabs.md', { name: 'Tabs', description: 'The user indents with tabs', type: 'user', body: 'Tabs, width 4.' })
  const channels: string[] = []
  const chunks: string[] = []
  app.on('websocket', (socket) => socket.on('framesent', ({ payload }) => void channels.push(/"channel":"([^"]+)"/.exec(String(payload))?.[1] ?? '')))
  app.on('request', (request) => void (/\/MemoryBrowser-[^/]*\.js$/.test(request.url()) && chunks.push(request.url())))
  await app.reload() // from the first paint on, with the listeners in place
  await openByPath(app, projectDir)
  await expect.poll(() => channels.filter((channel) => channel === 'memory.list').length).toBe(1)
  // (The page before the reload may have fetched it too: count what the first open adds.)
  await expect.poll(() => chunks.length).toBeGreaterThan(0)
  const fetched = chunks.length

  // Written after the prefetch: the open shows what it has at once, then what is on disk now.
  await writeMemoryFile(memoryDir, 'feedback_pnpm.md', { name: 'Use pnpm', description: 'Scripts run with pnpm', type: 'feedback', body: 'pnpm.\n\n**Why:** the lockfile.\n**How to apply:** pnpm test.' })
  const dialog = await openMemoryBrowser(app)
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Tabs' })).toContainText('The user indents with tabs')
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })).toContainText('Scripts run with pnpm')
  await expect(dialog.getByRole('list', { name: 'Memories (2)' })).toBeVisible()
  expect(channels.filter((channel) => channel === 'memory.list').length).toBe(2)
  expect(chunks).toHaveLength(fetched)
})

test('a memory the agent updates while the browser is closed is highlighted when it opens, and no longer once undone from the chat', async ({ app, projectDir, sousHome, modelServer }) => {
  await setMemoryPreferences(sousHome, { autoMemory: true })
  const memoryDir = projectMemoryDir(sousHome, projectDir)
  const fields = { name: 'Use pnpm', description: 'Scripts run with pnpm here, never npm', type: 'feedback', body: 'Run scripts with pnpm.\n\n**Why:** npm rewrote the lockfile.\n**How to apply:** pnpm test.' }
  await writeMemoryFile(memoryDir, 'feedback_use_pnpm.md', fields)
  const refined = { ...fields, scope: 'project', body: `${fields.body}\nAlso pnpm dlx instead of npx.` }
  await modelServer.setScenario([
    // The memory exists, so recall asks its model (a lane of its own) beside the turn.
    { reply: { content: [{ type: 'text', text: '{"memories": []}' }] }, forModel: 'claude-haiku-4-5' },
    { reply: { content: [{ type: 'text', text: 'Noted: pnpm dlx too.' }] } },
    { reply: { content: [{ type: 'text', text: JSON.stringify({ memories: [refined] }) }] } },
  ])
  await openByPath(app, projectDir)
  // Opened once and closed: from then on the browser's list follows the project.
  let dialog = await openMemoryBrowser(app)
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('And use pnpm dlx instead of npx.')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const line = chat.getByLabel('Memory')
  await expect(line).toContainText('Memory updated: Use pnpm (feedback)')

  dialog = await openMemoryBrowser(app)
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })).toContainText('written by the agent')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await line.getByRole('button', { name: 'Undo' }).click()
  await expect(line.getByRole('status')).toHaveText('Undone')
  expect(await readFile(join(memoryDir, 'feedback_use_pnpm.md'), 'utf8')).not.toContain('pnpm dlx')

  dialog = await openMemoryBrowser(app)
  const row = dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })
  await expect(row).toBeVisible()
  await expect(row).not.toContainText('written by the agent')
  await expect(row.getByRole('button', { name: "Undo the agent's change to Use pnpm" })).toHaveCount(0)
})

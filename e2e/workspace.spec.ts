import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { expect, test } from './fixtures'
import { dropFolder, openByPath, openTrusted } from './support/app'

test('several projects stay open as tabs, each with its own running terminal', async ({
  app,
  projectDir,
}) => {
  await openByPath(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  await terminal.getByRole('tabpanel').locator('.xterm').click()
  await app.keyboard.type('echo in-first-project')
  await app.keyboard.press('Enter')
  await expect(
    terminal
      .getByRole('tabpanel')
      .locator('.xterm-rows > div')
      .filter({ hasText: /^\s*in-first-project\s*$/ }),
  ).toHaveCount(1)

  const other = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-second-')))
  try {
    await dropFolder(app, other, '.conversation')
    const tabs = app.getByRole('tablist', { name: 'Open projects' })
    await expect(tabs.getByRole('tab')).toHaveText([basename(projectDir), basename(other)])
    await expect(tabs.getByRole('tab', { name: basename(other) })).toHaveAttribute('aria-selected', 'true')
    await expect(app.getByLabel('Current project')).toContainText(other)
    await expect(terminal.getByRole('status')).toHaveText('Running')

    // Back to the first project: its shell kept running and its output is still there.
    await tabs.getByRole('tab', { name: basename(projectDir) }).click()
    await expect(app.getByLabel('Current project')).toContainText(projectDir)
    await expect(
      terminal
        .getByRole('tabpanel')
        .locator('.xterm-rows > div')
        .filter({ hasText: /^\s*in-first-project\s*$/ }),
    ).toHaveCount(1)
  } finally {
    await rm(other, { recursive: true, force: true })
  }
})

test('the file tree respects .gitignore, marks what the agent wrote, opens it read-only and shows the session diff', async ({
  app,
  projectDir,
  modelServer,
}) => {
  await writeFile(join(projectDir, '.gitignore'), 'secret.env\n')
  await writeFile(join(projectDir, 'secret.env'), 'TOKEN=1\n')
  await mkdir(join(projectDir, '.claude'))
  await writeFile(
    join(projectDir, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Write'] } }),
  )
  const notes = join(projectDir, 'notes.md')
  await modelServer.setScenario([
    {
      reply: {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_e2e_write',
            name: 'Write',
            input: { file_path: notes, content: '# Notes\nhello from the agent\n' },
          },
        ],
      },
    },
    { reply: { content: [{ type: 'text', text: 'Wrote the notes.' }] } },
  ])
  await openTrusted(app, projectDir)
  const files = app.getByRole('tree', { name: 'Project files' })
  await expect(files.getByRole('treeitem', { name: 'README.md' })).toBeVisible()
  await expect(files.getByRole('treeitem', { name: '.gitignore' })).toBeVisible()
  await expect(files.getByRole('treeitem', { name: 'secret.env' })).toHaveCount(0)

  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Write some notes')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Wrote the notes.')
  await expect(files.getByRole('treeitem', { name: 'notes.md (changed)' })).toBeVisible()
  await expect(files.getByRole('treeitem', { name: 'README.md' })).toBeVisible()

  // The keyboard walks the tree: down from the first row to notes.md, Enter opens it.
  await files.getByRole('button', { name: '.claude' }).focus()
  await app.keyboard.press('End')
  await expect(files.getByRole('button', { name: 'README.md' })).toBeFocused()
  await app.keyboard.press('Home')
  await expect(files.getByRole('button', { name: '.claude' })).toBeFocused()
  await files.getByRole('button', { name: 'notes.md' }).click()
  const viewer = app.getByRole('dialog', { name: 'notes.md' })
  await expect(viewer.locator('.monaco-editor .view-lines')).toContainText('hello from the agent')
  await expect(viewer).toContainText('Read-only')
  await app.keyboard.press('Escape')
  await expect(viewer).toBeHidden()

  await app.getByRole('region', { name: 'Files' }).getByRole('button', { name: 'Changes (1)' }).click()
  const diff = app.getByRole('dialog', { name: 'Changes in this session' })
  await expect(diff.getByRole('document', { name: 'Combined diff' })).toContainText('+hello from the agent')
  await expect(diff).toContainText('+++ b/notes.md')
  await diff.getByRole('button', { name: 'Close' }).click()
  await expect(diff).toBeHidden()
})

test('project settings are edited with validation that points at the broken line; preferences persist and apply', async ({
  app,
  projectDir,
  sousHome,
  modelServer,
}) => {
  await openByPath(app, projectDir)
  await app.getByRole('button', { name: 'Settings' }).click()
  const settings = app.getByRole('dialog', { name: 'Settings' })
  const editor = settings.getByRole('textbox', { name: '.claude/settings.json' })
  await editor.fill('{\n  "permissions": {\n    "allow": ["Read",]\n  }\n}')
  await settings.getByRole('button', { name: 'Save .claude/settings.json' }).click()
  await expect(settings.getByRole('alert')).toContainText('Line 3, column 22')
  await expect(editor).toHaveAttribute('aria-invalid', 'true')

  await editor.fill('{\n  "permissions": {\n    "allow": "Read"\n  }\n}')
  await settings.getByRole('button', { name: 'Save .claude/settings.json' }).click()
  await expect(settings.getByRole('alert')).toContainText('Line 3')
  await expect(settings.getByRole('alert')).toContainText('permissions.allow')

  await editor.fill('{ "permissions": { "allow": ["Read"] } }')
  await settings.getByRole('button', { name: 'Save .claude/settings.json' }).click()
  await expect(settings.getByText(`Saved ${join(projectDir, '.claude', 'settings.json')}.`)).toBeVisible()
  expect(JSON.parse(await readFile(join(projectDir, '.claude', 'settings.json'), 'utf8'))).toEqual({
    permissions: { allow: ['Read'] },
  })

  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('claude-e2e-model')
  await settings.getByRole('combobox', { name: 'Theme' }).selectOption('dark')
  await settings.getByRole('spinbutton', { name: 'Font size' }).fill('15')
  await settings.getByRole('button', { name: 'Save settings' }).click()
  await expect(settings.getByText('Saved.', { exact: true })).toBeVisible()
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark')
  const stored = JSON.parse(await readFile(join(sousHome, 'settings.json'), 'utf8'))
  expect(stored.sous).toMatchObject({ model: 'claude-e2e-model', theme: 'dark', fontSize: 15 })
  await app.keyboard.press('Escape')

  // A new session uses the model chosen in Settings.
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Using the chosen model.' }] } }])
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Which model?')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Using the chosen model.')
  const { requests } = await modelServer.recorded()
  expect(requests.at(-1)?.body['model']).toBe('claude-e2e-model')
  await app.getByRole('button', { name: 'Settings' }).click()
  // Back to the defaults for the other specs of this worker.
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('')
  await settings.getByRole('combobox', { name: 'Theme' }).selectOption('system')
  await settings.getByRole('spinbutton', { name: 'Font size' }).fill('13')
  await settings.getByRole('button', { name: 'Save settings' }).click()
  await app.keyboard.press('Escape')
  await expect(settings).toBeHidden()
})

test('the command palette reaches workspace actions from the keyboard', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  await app.keyboard.press('Control+Shift+P')
  const palette = app.getByRole('dialog', { name: 'Command palette' })
  const command = palette.getByRole('combobox', { name: 'Command' })
  await expect(command).toBeFocused()
  await command.fill('new term')
  await expect(palette.getByRole('option').first()).toHaveText(/New terminal/)
  await command.press('Enter')
  await expect(palette).toBeHidden()
  const tabs = app.getByRole('tablist', { name: 'Terminals' })
  await expect(tabs.getByRole('tab', { name: 'Terminal 2' })).toHaveAttribute('aria-selected', 'true')

  await app.keyboard.press('Control+Shift+P')
  await command.fill('agent terminal')
  await command.press('Enter')
  await expect(tabs.getByRole('tab', { name: 'Agent' })).toHaveAttribute('aria-selected', 'true')

  await app.keyboard.press('Control+Shift+P')
  await command.fill('settings')
  await command.press('ArrowDown')
  await command.press('ArrowUp')
  await command.press('Enter')
  await expect(app.getByRole('dialog', { name: 'Settings' })).toBeVisible()
  await app.keyboard.press('Escape')
})

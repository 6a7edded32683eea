import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openTrusted } from './support/app'

/**
 * Not a test: renders the README's workspace screenshot (sessions, files with a change marked,
 * the chat, and the Agent terminal showing the agent's command).
 *   SOUS_WORKSPACE_SCREENSHOT=docs/workspace.png npx playwright test e2e/workspace-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_WORKSPACE_SCREENSHOT

test.skip(!target, 'Set SOUS_WORKSPACE_SCREENSHOT=<file.png> to render the workspace screenshot.')

test('workspace screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  await mkdir(join(project, '.claude'), { recursive: true })
  await writeFile(
    join(project, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash', 'Write'] } }, null, 2),
  )
  await writeFile(join(project, '.gitignore'), 'node_modules/\n')
  await writeFile(join(project, 'README.md'), '# Pantry\n\nTrack what is in the kitchen.\n')
  await writeFile(join(project, 'src', 'index.ts'), 'export const items: string[] = []\n')
  const command = 'grep -rn "items" src && wc -l README.md src/*.ts'
  await modelServer.setScenario([
    {
      reply: {
        content: [
          { type: 'text', text: 'Let me look at the code first.' },
          {
            type: 'tool_use',
            id: 'toolu_shot_1',
            name: 'Bash',
            input: { command, description: 'Find where items are used' },
          },
        ],
      },
    },
    {
      reply: {
        content: [
          { type: 'text', text: 'I will add a small helper to add items.' },
          {
            type: 'tool_use',
            id: 'toolu_shot_2',
            name: 'Write',
            input: {
              file_path: join(project, 'src', 'add.ts'),
              content:
                "import { items } from './index'\n\n/** Adds an item unless it is there already. */\nexport function add(item: string): void {\n  if (!items.includes(item)) items.push(item)\n}\n",
            },
          },
        ],
      },
    },
    {
      reply: {
        content: [
          {
            type: 'text',
            text: 'Added `src/add.ts` with an `add` helper that skips duplicates. The session diff shows the change.',
          },
        ],
      },
      chunkSize: 24,
    },
  ])
  await app.setViewportSize({ width: 1440, height: 860 })
  await openTrusted(app, project)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  await terminal.getByRole('tab', { name: 'Agent' }).click()

  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Add a helper to add items without duplicates')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('skips duplicates')
  await expect(terminal.getByRole('tabpanel', { name: 'Agent' }).locator('.xterm-rows')).toContainText(
    '[exit 0]',
  )
  const files = app.getByRole('tree', { name: 'Project files' })
  await files.getByRole('button', { name: 'src' }).click()
  await expect(files.getByRole('treeitem', { name: 'add.ts (changed)' })).toBeVisible()
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'workspace.png') })
})

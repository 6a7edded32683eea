import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * `@` completion in the composer, through `sous serve`: the list comes from the main process
 * (`files.search`), `.gitignore` respected; ↑/↓ move, Enter and Tab insert, Esc closes.
 */
test('"@" completes the project\'s files and folders from the keyboard', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Seen.' }] } }])
  await writeFile(join(projectDir, '.gitignore'), 'dist/\n')
  await mkdir(join(projectDir, 'src', 'main'), { recursive: true })
  await mkdir(join(projectDir, 'dist'))
  await writeFile(join(projectDir, 'src', 'main', 'core.ts'), 'export {}\n')
  await writeFile(join(projectDir, 'src', 'main', 'core.test.ts'), 'export {}\n')
  await writeFile(join(projectDir, 'dist', 'core.js'), '')
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  const combo = chat.getByRole('combobox', { name: 'Message' })
  const list = chat.getByRole('listbox', { name: 'Files and folders' })

  await input.click()
  await app.keyboard.type('Look at @core')
  await expect(combo).toHaveAttribute('aria-expanded', 'true')
  await expect(list.getByRole('option')).toHaveText(['@src/main/core.ts', '@src/main/core.test.ts'])
  await expect(list.getByRole('option', { selected: true })).toHaveText('@src/main/core.ts')
  await input.press('ArrowDown')
  await expect(list.getByRole('option', { selected: true })).toHaveText('@src/main/core.test.ts')
  await input.press('ArrowUp')
  await input.press('Enter')
  await expect(input).toHaveValue('Look at @src/main/core.ts ')
  await expect(list).toHaveCount(0)
  await expect(combo).toHaveAttribute('aria-expanded', 'false')

  // A folder ends with "/" and leaves the list open on what is inside it; Tab inserts too.
  await app.keyboard.type('and @sr')
  await expect(list.getByRole('option').first()).toHaveText('@src/')
  await input.press('Tab')
  await expect(input).toHaveValue('Look at @src/main/core.ts and @src/')
  await expect(list.getByRole('option').first()).toHaveText('@src/main/')
  await input.press('Escape')
  await expect(list).toHaveCount(0)
  await expect(input).toHaveValue('Look at @src/main/core.ts and @src/')

  // Ignored files are never offered.
  await input.fill('')
  await app.keyboard.type('@dist')
  await expect(list).toHaveCount(0)
  await input.fill('')
  await app.keyboard.type('@READ')
  await expect(list.getByRole('option')).toHaveText(['@README.md'])
  await list.getByRole('option').first().click()
  await expect(input).toHaveValue('@README.md ')
  await expect(input).toBeFocused()

  // With the list closed, Enter sends as usual.
  await input.press('Enter')
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('You')).toHaveText('@README.md')
})

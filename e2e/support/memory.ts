import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type Locator, type Page } from '@playwright/test'

/**
 * Helpers for the memory specs. The app's HOME is `<sousHome>/user-home` (see fixtures.ts), so a
 * project's memory folder is Claude Code's: `~/.claude/projects/<project path, dashed>/memory`.
 */

/** The project's memory folder, as the app computes it (the project is not in a git repository). */
export function projectMemoryDir(sousHome: string, projectDir: string): string {
  return join(sousHome, 'user-home', '.claude', 'projects', projectDir.replace(/[^a-zA-Z0-9]/g, '-'), 'memory')
}

/** Sets Sous's memory preferences in `$SOUS_HOME/settings.json` (read each time memory acts). */
export async function setMemoryPreferences(sousHome: string, preferences: Record<string, unknown>): Promise<void> {
  const file = join(sousHome, 'settings.json')
  const data = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { sous?: Record<string, unknown> }
  await writeFile(file, `${JSON.stringify({ ...data, sous: { ...data.sous, ...preferences } }, null, 2)}\n`)
}

/** Writes a memory file the way Claude Code (or a person) would. */
export async function writeMemoryFile(dir: string, file: string, fields: { name: string; description: string; type: string; body: string }): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, file), `---\nname: ${fields.name}\ndescription: ${fields.description}\ntype: ${fields.type}\n---\n\n${fields.body}\n`)
}

/** Opens the memory browser with `/memory` in the composer; returns the dialog. */
export async function openMemoryBrowser(page: Page): Promise<Locator> {
  const composer = page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await composer.fill('/memory')
  await composer.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Memory' })
  await expect(dialog).toBeVisible()
  return dialog
}

/** Replaces the text of the memory body (Monaco) by typing, as a person would. */
export async function typeBody(page: Page, dialog: Locator, text: string): Promise<void> {
  const body = dialog.locator('.memory-editor__body')
  await expect(body.locator('.monaco-editor')).toBeVisible()
  await body.click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.type(text)
}

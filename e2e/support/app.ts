import { expect, type Locator, type Page } from '@playwright/test'
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Opens `dir` by typing its path into the open panel; after a reload of a page that had it open,
 * waits for it to come back instead (the page restores its open projects).
 */
export async function openByPath(page: Page, dir: string): Promise<void> {
  const restoring = await page.evaluate((path) => {
    const saved = (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('sous.workspace')
    return saved !== null && (JSON.parse(saved) as { projects?: string[] }).projects?.includes(path) === true
  }, dir)
  if (restoring) return expectProjectOpen(page, dir)
  const panel = page.getByRole('region', { name: 'Open a project' })
  await panel.getByRole('textbox', { name: 'Project folder path' }).fill(dir)
  await panel.getByRole('button', { name: 'Open', exact: true }).click()
  await expectProjectOpen(page, dir)
}

/** Drops `dir` on the window the way a file manager does: a drop whose `text/uri-list` is its file URI. */
export async function dropFolder(page: Page, dir: string, target = 'body'): Promise<void> {
  const uri = pathToFileURL(dir).href
  const dataTransfer = await page.evaluateHandle((fileUri) => {
    const transfer = new (globalThis as unknown as { DataTransfer: new () => { setData(type: string, data: string): void } }).DataTransfer()
    transfer.setData('text/uri-list', fileUri)
    transfer.setData('text/plain', fileUri)
    return transfer
  }, uri)
  await page.dispatchEvent(target, 'dragenter', { dataTransfer })
  await page.dispatchEvent(target, 'dragover', { dataTransfer })
  await page.dispatchEvent(target, 'drop', { dataTransfer })
  await dataTransfer.dispose()
}

/** The project bar names the project, and its chat and terminal are there. */
export async function expectProjectOpen(page: Page, dir: string): Promise<void> {
  const current = page.getByLabel('Current project')
  await expect(current).toContainText(basename(dir))
  await expect(current).toContainText(dir)
  await expect(page.getByRole('region', { name: 'Chat' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Terminal' })).toBeVisible()
}

/**
 * Opens `dir`, whose own settings the test wrote, and trusts them in the trust dialog (until
 * trusted, a project's allow rules and hooks are ignored).
 */
export async function openTrusted(page: Page, dir: string): Promise<void> {
  await openByPath(page, dir)
  const dialog = page.getByRole('dialog', { name: `Trust the files in ${basename(dir)}?` })
  await dialog.getByRole('button', { name: 'Trust this project' }).click()
  await expect(dialog).toBeHidden()
}

/** Types `text` into the chat's message box and sends it; returns the chat region. */
export async function sendMessage(page: Page, text: string): Promise<Locator> {
  const chat = page.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill(text)
  await input.press('Enter')
  return chat
}

import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Pictures in the composer: a pasted PNG shows as a thumbnail and goes to the model as an image
 * block with the text; a file that is not an image, or one over 5 MB, gets a clear message and is
 * not attached.
 */

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** Pastes files into the message box the way the clipboard does. */
async function paste(page: Page, files: Array<{ name: string; type: string; base64?: string; size?: number }>): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).evaluate((box, list) => {
    // The page's own DOM classes (the spec is compiled without the DOM library).
    const dom = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } }
      ClipboardEvent: new (type: string, init: Record<string, unknown>) => unknown
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown
    }
    const transfer = new dom.DataTransfer()
    for (const file of list) {
      const bytes = file.base64 ? Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0)) : new Uint8Array(file.size ?? 1)
      transfer.items.add(new dom.File([bytes], file.name, { type: file.type }))
    }
    box.dispatchEvent(new dom.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }) as Event)
  }, files)
}

test('a pasted image is shown as a thumbnail and sent as an image block; bad files are refused with a message', async ({ app, projectDir, modelServer }) => {
  await app.setViewportSize({ width: 1280, height: 720 })
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'A single pixel.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })

  await paste(app, [{ name: 'notes.txt', type: 'text/plain', size: 10 }])
  await expect(chat.getByRole('alert')).toHaveText('notes.txt is not an image Sous can send (PNG, JPEG, GIF or WebP); it was not attached.')
  await paste(app, [{ name: 'huge.png', type: 'image/png', size: 5 * 1024 * 1024 + 1 }])
  await expect(chat.getByRole('alert')).toContainText('huge.png is 5.0 MB; images are sent up to 5 MB.')
  await expect(chat.getByRole('list', { name: 'Attached images' })).toHaveCount(0)

  await paste(app, [{ name: 'pixel.png', type: 'image/png', base64: PNG }])
  const thumbnail = chat.getByRole('list', { name: 'Attached images' }).getByRole('img', { name: 'pixel.png' })
  await expect(thumbnail).toBeVisible()
  const box = await thumbnail.boundingBox()
  expect(box!.width).toBeLessThanOrEqual(80)
  await chat.getByRole('textbox', { name: 'Message' }).fill('What is in this picture?')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('A single pixel.')
  await expect(chat.getByRole('list', { name: 'Attached images' })).toHaveCount(0)

  const { requests } = await modelServer.recorded()
  const messages = requests.at(-1)!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>
  const content = messages.filter((message) => message.role === 'user').at(-1)!.content
  expect(content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'text', text: expect.stringContaining('What is in this picture?') }), expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } })]))
})

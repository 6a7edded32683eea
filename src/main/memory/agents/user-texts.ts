import type { Message } from '../../services/model/types'

/** Where the newest prompt starts (the first extraction of a resumed session looks at its last turn only). */
export function lastPromptIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (userTexts([messages[index]!]).length > 0) return index
  return 0
}

/** What the user typed in these messages: text blocks of user messages, without system reminders. */
export function userTexts(messages: readonly Message[]): string[] {
  const texts: string[] = []
  for (const message of messages) {
    if (message.role !== 'user') continue
    const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
    for (const block of blocks) {
      if (block.type !== 'text') continue
      const text = block.text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim()
      if (text) texts.push(text)
    }
  }
  return texts
}

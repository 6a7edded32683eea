/** Drafts per conversation, kept for the life of the window. */
const drafts = new Map<string, string>()

/** The draft of a conversation (empty when none). */
export function loadDraft(key: string): string {
  return drafts.get(key) ?? ''
}

/** Keeps (or, when empty, forgets) the draft of a conversation. */
export function saveDraft(key: string, text: string): void {
  if (text) drafts.set(key, text)
  else drafts.delete(key)
}

import { useEffect, useId, useRef, useState } from 'react'
import { api } from '../../api'
import { insertMention, mentionAt, MentionSearch } from './mention-complete'

/** At most this many files and folders are offered. */
const LIMIT = 20

/** The `@` completion of the composer: what to list, which one is picked, and what picking does. */
export interface MentionCompletion {
  /** Whether the list is shown. */
  open: boolean
  /** Relative paths, best first; folders end with `/`. */
  items: string[]
  selected: number
  listId: string
  optionId(index: number): string
  move(step: 1 | -1): void
  /** The text with the item (default: the selected one) inserted, and where the caret goes. */
  choose(index?: number): { text: string; caret: number } | undefined
  /** Esc: hide the list until another mention is started. */
  dismiss(): void
}

/**
 * Lists the project's files and folders matching the `@…` at the caret, asking the main process
 * (`files.search`) once typing pauses; answers to older queries are dropped.
 */
export function useMentions(projectPath: string, text: string, caret: number): MentionCompletion {
  const mention = mentionAt(text, caret)
  const [results, setResults] = useState<{ root: string; paths: string[] }>()
  const [selected, setSelected] = useState(0)
  const [dismissed, setDismissed] = useState<number>()
  const listId = useId()
  const root = useRef(projectPath)
  root.current = projectPath
  const search = useRef<MentionSearch>(undefined)
  search.current ??= new MentionSearch(
    async (query) => {
      const asked = root.current
      const result = await api.invoke('files.search', { projectPath: asked, query, limit: LIMIT })
      return result.ok && asked === root.current ? result.value : undefined
    },
    (_query, paths) => {
      setResults({ root: root.current, paths })
      setSelected(0)
    },
  )

  const query = mention?.query
  const start = mention?.start
  useEffect(() => {
    if (query === undefined) {
      search.current?.cancel()
      setResults(undefined)
      setDismissed(undefined)
      return
    }
    search.current?.request(query)
  }, [query, start, projectPath])
  useEffect(() => () => search.current?.cancel(), [])

  const items = results && results.root === projectPath ? results.paths : []
  const open = mention !== undefined && dismissed !== mention.start && items.length > 0
  const current = items.length > 0 ? Math.min(selected, items.length - 1) : 0
  return {
    open,
    items,
    selected: current,
    listId,
    optionId: (index) => `${listId}-${index}`,
    move: (step) => setSelected((index) => (Math.min(index, items.length - 1) + step + items.length) % items.length),
    choose(index = current) {
      const path = items[index]
      if (!mention || path === undefined) return undefined
      setResults(undefined)
      return insertMention(text, mention, path)
    },
    dismiss: () => setDismissed(mention?.start),
  }
}

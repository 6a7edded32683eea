import { useEffect, useRef, useState } from 'react'
import type { SearchAddon } from '@xterm/addon-search'

/** Find in a terminal's scrollback: Enter for the next match, Shift+Enter for the previous, Escape to close. */
export function TerminalSearch({ search, onClose }: { search: SearchAddon; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null)
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<boolean | null>(null)
  useEffect(() => input.current?.focus(), [])
  useEffect(() => () => search.clearDecorations(), [search])

  const find = (backwards: boolean) => {
    if (!query) return setFound(null)
    const options = {
      decorations: { matchOverviewRuler: '#c2562f', activeMatchColorOverviewRuler: '#2f5f9e' },
    }
    setFound(backwards ? search.findPrevious(query, options) : search.findNext(query, options))
  }

  return (
    <div className="terminal-search" role="search" aria-label="Find in terminal">
      <input
        ref={input}
        className="field field--small"
        type="search"
        aria-label="Find in terminal"
        placeholder="Find"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          setFound(null)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            find(event.shiftKey)
          } else if (event.key === 'Escape') {
            event.preventDefault()
            onClose()
          }
        }}
      />
      <button
        type="button"
        className="button button--small"
        onClick={() => find(true)}
        aria-label="Previous match"
      >
        ↑
      </button>
      <button
        type="button"
        className="button button--small"
        onClick={() => find(false)}
        aria-label="Next match"
      >
        ↓
      </button>
      <span className="terminal-search__status" role="status">
        {found === false ? 'No match' : ''}
      </span>
      <button
        type="button"
        className="button button--small button--quiet"
        onClick={onClose}
        aria-label="Close find"
      >
        ×
      </button>
    </div>
  )
}

import { ProjectBar } from '../features/projects/ProjectBar'
import { InboxButton } from '../features/inbox/InboxDialog'
import { openView } from '../lib/open-dialog'

/** The window's top bar: the project tabs, then the inbox (with its count), the palette and settings. */
export function TopBar({ onPalette, waiting }: { onPalette(): void; waiting: number }) {
  return (
    <header className="topbar">
      <span className="topbar__brand" aria-hidden="true">
        Sous
      </span>
      <ProjectBar />
      <div className="topbar__tools">
        <InboxButton count={waiting} onOpen={() => openView('inbox')} />
        <button
          type="button"
          className="button button--quiet"
          onClick={onPalette}
          aria-keyshortcuts="Control+Shift+P"
          title="Command palette (Ctrl+Shift+P)"
        >
          Commands
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => openView('settings')}
          aria-keyshortcuts="Control+,"
          title="Settings (Ctrl+,)"
        >
          Settings
        </button>
      </div>
    </header>
  )
}

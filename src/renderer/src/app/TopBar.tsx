import { ProjectBar } from '../features/projects/ProjectBar'
import { openView } from '../lib/open-dialog'

/** The window's top bar: the project tabs, then the palette and settings. */
export function TopBar({ onPalette }: { onPalette(): void }) {
  return (
    <header className="topbar">
      <span className="topbar__brand" aria-hidden="true">
        Sous
      </span>
      <ProjectBar />
      <div className="topbar__tools">
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

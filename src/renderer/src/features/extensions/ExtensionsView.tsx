import { useEffect, useId, type KeyboardEvent } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { CommandsSection } from './CommandsSection'
import { HooksSection } from './HooksSection'
import { McpSection } from './McpSection'
import { SkillsSection } from './SkillsSection'
import { SECTIONS, useExtensionsSection } from './section'
import { useExtensions } from './store'
import './extensions.css'

/**
 * Extensions: what extends the agent in the open project — MCP servers (status, tools and what
 * they cost, on/off, restart, logs), skills, custom commands, and the hook inspector — as tabs
 * (`/mcp` and `/hooks` open theirs). Mounted only while open; it reads everything again on open,
 * and servers and hook runs follow live.
 */
export function ExtensionsView({ projectPath, onClose }: { projectPath: string | null; onClose(): void }) {
  const { load, overview, hooks, error, busy } = useExtensions()
  const { section, show } = useExtensionsSection()
  const ids = useId()
  useEffect(() => {
    if (projectPath) void load(projectPath, true)
  }, [projectPath, load])

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const index = SECTIONS.findIndex((tab) => tab.id === section)
    const next = SECTIONS[(index + step + SECTIONS.length) % SECTIONS.length]!.id
    show(next)
    document.getElementById(`${ids}-tab-${next}`)?.focus()
  }

  return (
    <Dialog label="Extensions" className="dialog-frame extensions" onClose={onClose} initialFocus='[role="tab"][aria-selected="true"]'>
      <DialogHeader title="Extensions" onClose={onClose}>
        {projectPath && (
          <button type="button" className="button button--small button--quiet" disabled={busy !== null} onClick={() => void load(projectPath, true)}>
            Reload
          </button>
        )}
      </DialogHeader>
      <div role="tablist" aria-label="Extensions" className="extensions__tabs" onKeyDown={onTabKey}>
        {SECTIONS.map((tab) => (
          <button
            key={tab.id}
            id={`${ids}-tab-${tab.id}`}
            type="button"
            role="tab"
            className="extensions__tab"
            aria-selected={tab.id === section}
            aria-controls={`${ids}-panel`}
            tabIndex={tab.id === section ? 0 : -1}
            onClick={() => show(tab.id)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <div id={`${ids}-panel`} role="tabpanel" aria-labelledby={`${ids}-tab-${section}`} className="extensions__body">
        {error && (
          <p className="pane__error" role="alert">
            {error}
          </p>
        )}
        {!projectPath ? (
          <p className="extensions__empty">Open a project to see what extends the agent there.</p>
        ) : !overview ? (
          <p className="extensions__empty">Reading the project's extensions…</p>
        ) : section === 'mcp' ? (
          <McpSection overview={overview} projectPath={projectPath} onChanged={() => void load(projectPath, true)} />
        ) : section === 'skills' ? (
          <SkillsSection overview={overview} />
        ) : section === 'commands' ? (
          <CommandsSection overview={overview} />
        ) : (
          <HooksSection hooks={hooks} />
        )}
      </div>
    </Dialog>
  )
}

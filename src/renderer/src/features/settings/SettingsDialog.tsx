import { useEffect, type ReactNode } from 'react'
import { Dialog, DialogHeader } from '../../lib/Dialog'
import { ApiKeyForm } from './ApiKeyForm'
import { PreferencesForm } from './PreferencesForm'
import { ProjectSettingsEditor } from './ProjectSettingsEditor'
import { useSettings } from './store'
import './settings.css'

/**
 * Settings: the API key (write-only), model and connection, permissions default, look; and the
 * project's settings files. `children` are other features' sections (the shell passes them in).
 * Mounted only while open (the shell's view registry lazy-loads it).
 */
export function SettingsDialog({
  projectPath,
  onClose,
  children,
}: {
  projectPath: string | null
  onClose(): void
  children?: ReactNode
}) {
  // A fresh look each time it opens: the last save's confirmation or error belongs to that visit.
  useEffect(() => useSettings.getState().clearMessages(), [])

  return (
    <Dialog label="Settings" className="dialog-frame settings" onClose={onClose} initialFocus="input, select">
      <DialogHeader title="Settings" onClose={onClose} />
      <div className="settings__body">
        <ApiKeyForm />
        <PreferencesForm />
        {children}
        {projectPath && <ProjectSettingsEditor projectPath={projectPath} />}
      </div>
    </Dialog>
  )
}

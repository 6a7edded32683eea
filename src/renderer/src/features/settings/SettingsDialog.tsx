import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { Preferences } from '../../../../shared/ipc/contract'
import { useFocusTrap } from '../../lib/focus-trap'
import { ProjectSettingsEditor } from './ProjectSettingsEditor'
import { TurnGuardField } from './TurnGuardField'
import { describeKey } from './describe'
import { useSettings } from './store'
import './settings.css'

const MODES: Array<[NonNullable<Preferences['permissionMode']> | '', string]> = [
  ['', 'Default (ask before changes)'],
  ['acceptEdits', 'Accept edits'],
  ['plan', 'Plan (read-only)'],
  ['dontAsk', "Don't ask (deny what is not allowed)"],
  ['bypassPermissions', 'Bypass permissions'],
]

/** Settings: the API key (write-only), model and connection, permissions default, look; and the project's settings files. */
export function SettingsDialog({ projectPath }: { projectPath: string | null }) {
  const { open, preferences, keyStatus, error, notice, setOpen, update, setApiKey } = useSettings()
  const [key, setKey] = useState('')
  const [draft, setDraft] = useState(preferences)
  const dialog = useRef<HTMLDivElement>(null)
  useFocusTrap(dialog, open)

  useEffect(() => {
    if (open) {
      setDraft(preferences)
      dialog.current?.querySelector<HTMLElement>('input, select')?.focus()
    }
    // Only when the dialog opens: typing must not be overwritten by a save's answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])
  if (!open) return null

  const saveKey = async (event: FormEvent) => {
    event.preventDefault()
    if (key.trim() && (await setApiKey(key.trim()))) setKey('')
  }
  const savePreferences = (event: FormEvent) => {
    event.preventDefault()
    void update({
      baseUrl: draft.baseUrl ?? '',
      model: draft.model ?? '',
      fallbackModel: draft.fallbackModel ?? '',
      ...(draft.permissionMode ? { permissionMode: draft.permissionMode } : {}),
      ...(draft.turnGuard ? { turnGuard: draft.turnGuard } : {}),
      theme: draft.theme,
      fontSize: draft.fontSize,
    })
  }
  const text = (field: 'baseUrl' | 'model' | 'fallbackModel', label: string, placeholder: string) => (
    <label className="settings__field">
      <span>{label}</span>
      <input
        className="field"
        value={draft[field] ?? ''}
        placeholder={placeholder}
        spellCheck={false}
        onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      />
    </label>
  )

  return (
    <div className="viewer-backdrop" onClick={() => setOpen(false)}>
      <div
        ref={dialog}
        className="settings"
        role="dialog"
        aria-modal="true"
        aria-label="Settings"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            setOpen(false)
          }
        }}
      >
        <header className="viewer__header">
          <h2 className="pane__title">Settings</h2>
          <button type="button" className="button button--small" onClick={() => setOpen(false)}>
            Close
          </button>
        </header>
        <div className="settings__body">
          <form className="settings__group" onSubmit={(event) => void saveKey(event)}>
            <fieldset className="settings__group">
              <legend>API key</legend>
              <p className="status" aria-label="API key status">
                {describeKey(keyStatus)}
              </p>
              {keyStatus?.warning && <p className="status">{keyStatus.warning}</p>}
              <div className="settings__row">
                <input
                  className="field"
                  type="password"
                  aria-label="API key"
                  autoComplete="off"
                  placeholder="sk-ant-…"
                  value={key}
                  onChange={(event) => setKey(event.target.value)}
                />
                <button type="submit" className="button" disabled={!key.trim()}>
                  Save key
                </button>
              </div>
            </fieldset>
          </form>
          <form onSubmit={savePreferences}>
            <fieldset className="settings__group">
              <legend>Model and connection</legend>
              {text('baseUrl', 'Base URL', 'https://api.anthropic.com')}
              {text('model', 'Model', 'default')}
              {text('fallbackModel', 'Fallback model', 'none')}
              <label className="settings__field">
                <span>Default permission mode</span>
                <select
                  className="field"
                  value={draft.permissionMode ?? ''}
                  onChange={(event) =>
                    setDraft({
                      ...draft,
                      permissionMode: (event.target.value || undefined) as Preferences['permissionMode'],
                    })
                  }
                >
                  {MODES.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
              <TurnGuardField value={draft.turnGuard} onChange={(turnGuard) => setDraft({ ...draft, turnGuard })} />
            </fieldset>
            <fieldset className="settings__group">
              <legend>Appearance</legend>
              <label className="settings__field">
                <span>Theme</span>
                <select
                  className="field"
                  value={draft.theme}
                  onChange={(event) =>
                    setDraft({ ...draft, theme: event.target.value as Preferences['theme'] })
                  }
                >
                  <option value="system">System</option>
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                </select>
              </label>
              <label className="settings__field">
                <span>Font size</span>
                <input
                  className="field"
                  type="number"
                  min={9}
                  max={32}
                  value={draft.fontSize}
                  onChange={(event) =>
                    setDraft({
                      ...draft,
                      fontSize: Math.min(32, Math.max(9, Number(event.target.value) || 13)),
                    })
                  }
                />
              </label>
            </fieldset>
            <div className="settings__row">
              <button type="submit" className="button button--primary">
                Save settings
              </button>
              <span role="status" className="status">
                {notice}
              </span>
            </div>
            {error && (
              <p className="pane__error" role="alert">
                {error}
              </p>
            )}
          </form>
          {projectPath && <ProjectSettingsEditor projectPath={projectPath} />}
        </div>
      </div>
    </div>
  )
}

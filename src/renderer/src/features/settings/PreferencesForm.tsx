import { useState, type FormEvent } from 'react'
import type { Preferences } from '../../../../shared/ipc/contract'
import { TurnGuardField } from './TurnGuardField'
import { useSettings } from './store'

const MODES: Array<[NonNullable<Preferences['permissionMode']> | '', string]> = [
  ['', 'Default (ask before changes)'],
  ['acceptEdits', 'Accept edits'],
  ['plan', 'Plan (read-only)'],
  ['dontAsk', "Don't ask (deny what is not allowed)"],
  ['bypassPermissions', 'Bypass permissions'],
]

/**
 * Sous's own preferences: model and connection, the default permission mode, the desktop's turn
 * guard, theme and font size.
 * Edits stay a draft (taken from the stored preferences when the dialog opens) until Save.
 */
export function PreferencesForm() {
  const { preferences, error, notice, update } = useSettings()
  const [draft, setDraft] = useState(preferences)

  const save = (event: FormEvent) => {
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
    <form onSubmit={save}>
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
              setDraft({ ...draft, permissionMode: (event.target.value || undefined) as Preferences['permissionMode'] })
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
            onChange={(event) => setDraft({ ...draft, theme: event.target.value as Preferences['theme'] })}
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
            onChange={(event) => setDraft({ ...draft, fontSize: Math.min(32, Math.max(9, Number(event.target.value) || 13)) })}
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
  )
}

import { useState, type FormEvent } from 'react'
import { describeKey } from './describe'
import { useSettings } from './store'

/** The API key: where it is kept (never what it is) and a write-only field to replace it. */
export function ApiKeyForm() {
  const keyStatus = useSettings((state) => state.keyStatus)
  const setApiKey = useSettings((state) => state.setApiKey)
  const [key, setKey] = useState('')

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (key.trim() && (await setApiKey(key.trim()))) setKey('')
  }

  return (
    <form className="settings__group" onSubmit={(event) => void save(event)}>
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
  )
}

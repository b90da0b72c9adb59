import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { END_STATE, INIT_STATE } from '@tramita/contract'
import { addState, removeState, setValue, type Command, type ProblemIndex } from '../model/index.js'
import { Problems } from './fields.js'

interface State {
  id: string
  label: string
  color?: string
}

/** The process's states: name and colour; init and end always stay. */
export function StatesEditor(props: {
  states: State[]
  apply: (c: Command, merge?: string) => void
  problems: ProblemIndex
}) {
  const { t } = useTranslation()
  const [label, setLabel] = useState('')
  const { states, apply, problems } = props
  return (
    <fieldset className="process-states">
      <legend>{t('process.states')}</legend>
      <Problems problems={problems} path="/process/states" />
      <ul>
        {states.map((state, i) => (
          <li key={state.id} data-testid={`state-${state.id}`}>
            <input
              aria-label={t('process.state_name')}
              value={state.label}
              onChange={(e) =>
                apply(setValue(`/process/states/${i}/label`, e.target.value), `/process/states/${i}/label`)
              }
            />
            <input
              type="color"
              aria-label={t('process.color')}
              value={state.color ?? '#1C1066'}
              onChange={(e) => apply(setValue(`/process/states/${i}/color`, e.target.value))}
            />
            <code>{state.id}</code>
            {state.id !== INIT_STATE && state.id !== END_STATE && (
              <button type="button" onClick={() => apply(removeState(state.id))}>
                {t('process.remove')}
              </button>
            )}
            <Problems problems={problems} path={`/process/states/${i}/label`} />
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (label.trim() === '') return
          apply(addState(label))
          setLabel('')
        }}
      >
        <input aria-label={t('process.new_state')} value={label} onChange={(e) => setLabel(e.target.value)} />
        <button type="submit">{t('process.add_state')}</button>
      </form>
    </fieldset>
  )
}

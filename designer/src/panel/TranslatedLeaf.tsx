/**
 * A translatable text's row while texts are given in another language: the box holds the
 * translation, the form's own text shows as its placeholder (what readers see while it is empty),
 * and emptying the box removes the translation.
 */
import { useId } from 'react'
import { translationKey } from '@tramita/contract'
import type { LeafEditorProps } from './LeafEditor.js'
import { keyLabel } from './labels.js'
import { usePanel, useTexts, type Translation } from './panel_context.js'
import { ResetButton } from './ResetButton.js'
import { TextEditor } from './TextEditor.js'

export function TranslatedLeaf({ node, source, at, abs, translation }: LeafEditorProps & { translation: Translation }) {
  const id = useId()
  const texts = useTexts()
  const { multi } = usePanel()
  // abs is the path inside the item; translations name texts by their path inside its data.
  const key = translationKey(translation.data, abs.slice(1))
  const own = source.read(at)
  const ownText = own.mixed
    ? texts.t('panel.mixed')
    : typeof own.value === 'string'
      ? own.value
      : typeof node.default === 'string'
        ? node.default
        : ''
  const shared = translation.read(key)
  const label = `${keyLabel(texts, abs)} (${translation.language})`
  const commit = (value: unknown) =>
    translation.write(key, typeof value === 'string' && value !== '' ? value : undefined)
  return (
    <div className="panel-row panel-text panel-translated" data-translation={key}>
      <label htmlFor={id}>{label}</label>
      <TextEditor
        node={{ ...node, default: '' }}
        shared={shared}
        input={{ id, lang: translation.language }}
        placeholder={shared.mixed ? texts.t('panel.mixed') : ownText}
        commit={commit}
      />
      <span className="panel-state">
        {shared.set ? <ResetButton name={label} onReset={() => commit(undefined)} /> : null}
      </span>
      {multi ? null : (
        <small className="panel-hint">{texts.tv('panel.translation_of', { text: ownText || '—' })}</small>
      )}
    </div>
  )
}

/**
 * SurveyJS's side of the benchmark: the same form, from its SurveyJS JSON, in survey-react-ui with
 * the settings that make the comparison fair (shared/TOOLCHAIN.md): conditions react per keystroke
 * (textUpdateMode 'onTyping'), no animations (hidden questions would linger), no web fonts.
 */
import { createRoot } from 'react-dom/client'
import { Model, settings } from 'survey-core'
import { Survey } from 'survey-react-ui'
import 'survey-core/survey-core.fontless.min.css'

settings.animationEnabled = false
// The bench measures time to interactive from here too (form.bench.mjs).
performance.mark('bench:model')
const model = new Model(__BENCH_SURVEY__)
model.textUpdateMode = 'onTyping'

createRoot(document.getElementById('root')!).render(<Survey model={model} />)

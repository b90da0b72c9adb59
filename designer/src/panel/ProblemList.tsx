/** The contract's messages for one editor (or the panel), read out as soon as they appear. */
import type { ShownProblem } from './problems.js'

export function ProblemList({
  id,
  problems,
  multi,
}: {
  id?: string
  problems: readonly ShownProblem[]
  multi: boolean
}) {
  if (problems.length === 0) return null
  return (
    <ul id={id} className="panel-problems" role="alert">
      {problems.map((problem, i) => (
        <li key={i}>
          {multi ? <strong>{problem.item}: </strong> : null}
          {problem.message}
        </li>
      ))}
    </ul>
  )
}

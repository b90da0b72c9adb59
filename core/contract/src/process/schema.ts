/**
 * A process definition (spec 000 §3–§4): the JSON that binds steps, assignees, decisions and states to
 * a form version. It sits beside the form's jsonconfig so the designer and the CLI can write it; the
 * engine in core/server runs it. Defaults are schema annotations, as for the form.
 */
import type { Static } from '@sinclair/typebox'
import * as Type from '../schema/type.js'

/** State ids are short lower-case names; `init` and `end` always exist (shown as Iniciado and Finalizado). */
export const STATE_ID_PATTERN = '^[a-z][a-z0-9_]{0,39}$'
export const STEP_ID_PATTERN = '^[a-z][a-z0-9_]{0,39}$'
export const INIT_STATE = 'init'
export const END_STATE = 'end'
/** The task name of case new: fields whose show_on_task lists name it are shown to the starter. */
export const START_TASK = 'start'

const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', default: '#1C1066' })

export const ProcessState = Type.Object(
  {
    id: Type.String({ pattern: STATE_ID_PATTERN }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    color: Color,
  },
  { additionalProperties: false }
)

/** Who does a step: the spec's four assignee kinds, plus `field` (a user id or an e-mail taken from a field). */
export const ASSIGNEE_KINDS = ['user', 'rol', 'area', 'external', 'field'] as const
export type AssigneeKind = (typeof ASSIGNEE_KINDS)[number]

export const Assignee = Type.Object(
  {
    type: Type.Union(ASSIGNEE_KINDS.map((k) => Type.Literal(k))),
    /** user, rol, area: the id. */
    id: Type.Optional(Type.Integer({ minimum: 1 })),
    /** external: the person's e-mail. */
    email: Type.Optional(Type.String({ maxLength: 254 })),
    /** external: the person's name, for the activity log. */
    name: Type.Optional(Type.String({ maxLength: 200 })),
    /** field: the field whose value names the assignee (a user id, or an e-mail for an external person). */
    field: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false }
)

/** Where the case goes next: another step, or nowhere (the case ends). `state` is entered on the way. */
const Next = Type.Object(
  {
    step: Type.Union([Type.String({ pattern: STEP_ID_PATTERN }), Type.Null()], { default: null }),
    state: Type.Optional(Type.String({ pattern: STATE_ID_PATTERN })),
  },
  { additionalProperties: false, default: {} }
)

/**
 * Whether the person deciding writes a comment with the decision: none (no box), optional (a box, may
 * stay empty) or required (the decision is refused without one). Optional by default: a reviewer
 * expects to be able to say why, and nobody is stopped by a box left empty.
 */
export const DECISION_COMMENT_RULES = ['none', 'optional', 'required'] as const
export type DecisionCommentRule = (typeof DECISION_COMMENT_RULES)[number]
/** The longest comment kept with a decision (characters). */
export const DECISION_COMMENT_MAX = 1000

export const Decision = Type.Object(
  {
    id: Type.String({ pattern: STEP_ID_PATTERN }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    color: Color,
    next: Next,
    comment: Type.Union(
      DECISION_COMMENT_RULES.map((k) => Type.Literal(k)),
      { default: 'optional' }
    ),
  },
  { additionalProperties: false }
)

export const STEP_KINDS = ['fill', 'approve'] as const

export const Step = Type.Object(
  {
    id: Type.String({ pattern: STEP_ID_PATTERN }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    /** fill: the assignee enters values (case enter); approve: the assignee takes a decision (case approve). */
    kind: Type.Union(
      STEP_KINDS.map((k) => Type.Literal(k)),
      { default: 'fill' }
    ),
    assign: Assignee,
    /** The state the case enters when this step is assigned (unchanged when absent). */
    state: Type.Optional(Type.String({ pattern: STATE_ID_PATTERN })),
    /** fill steps: where the case goes once the step is done. */
    next: Next,
    /** approve steps: the choices, each with where it leads. */
    decisions: Type.Array(Decision, { default: [] }),
    /** States the person doing this step may move the case to with go_to_state. */
    go_to_states: Type.Array(Type.String({ pattern: STATE_ID_PATTERN }), { default: [] }),
    /** E-mail the assignees when the step is assigned. */
    notify: Type.Boolean({ default: true }),
    /**
     * Four-eyes: the case's starter and whoever did the previous step may not do this step. Absent,
     * it follows the kind (on for approvals): read it through fourEyes().
     */
    four_eyes: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false }
)

export const ExternalConsultation = Type.Object(
  {
    enable: Type.Boolean({ default: false }),
    /** A field whose value the visitor must type besides the code ('' for none). */
    select_restrinct_consult: Type.String({ default: '' }),
    label_restrinct_consult: Type.String({ default: '' }),
    /** The fields shown to the visitor; empty shows every field. */
    select_show_info: Type.Array(Type.String(), { default: [] }),
    activity_register: Type.Boolean({ default: false }),
  },
  { additionalProperties: false, default: {} }
)

export const ProcessDefinition = Type.Object(
  {
    version: Type.Literal(1, { default: 1 }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    color: Color,
    states: Type.Array(ProcessState, { minItems: 2 }),
    /** Who may start a case (case new); all lists empty means every signed-in user. */
    starters: Type.Object(
      {
        users: Type.Array(Type.Integer({ minimum: 1 }), { default: [] }),
        roles: Type.Array(Type.Integer({ minimum: 1 }), { default: [] }),
        areas: Type.Array(Type.Integer({ minimum: 1 }), { default: [] }),
      },
      { additionalProperties: false, default: {} }
    ),
    /** Where a new case goes after the starter submits it. */
    start: Next,
    steps: Type.Array(Step, { default: [] }),
    external_consultation: ExternalConsultation,
  },
  { additionalProperties: false }
)

export type ProcessDefinition = Static<typeof ProcessDefinition>

/** Whether a step refuses its case's starter and its previous step's doer (on by default for approvals). */
export function fourEyes(step: { kind: string; four_eyes?: boolean }): boolean {
  return step.four_eyes ?? step.kind === 'approve'
}
export type ProcessStep = Static<typeof Step>
export type ProcessDecision = Static<typeof Decision>
export type ProcessNext = Static<typeof Next>
export type ProcessAssignee = Static<typeof Assignee>

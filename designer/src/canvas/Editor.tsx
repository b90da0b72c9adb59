/**
 * The form editor: the palette, the page tabs, the canvas of the shown page and the toolbar, in one
 * dnd-kit context. Every change goes through the model's commands (use_design.ts); drops are mapped
 * to commands by drops.ts, and the screen reader hears each step in the page's language.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  DndContext,
  DragOverlay,
  closestCenter,
  pointerWithin,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import type { ActionTypeRegistry, Device, FieldTypeRegistry } from '@tramita/contract'
import { outline, type DesignDocument } from '../model/index.js'
import {
  describePlace,
  describeSource,
  dropCommand,
  itemDragId,
  paletteDragId,
  parseDragId,
  parseDropId,
  type DragSource,
} from './drops.js'
import { jumpToNearestPlace } from './keyboard_moves.js'
import { DropClickPointerSensor } from './pointer_sensor.js'
import { PromptKeyboardSensor } from './keyboard_sensor.js'
import { useDesign } from './use_design.js'
import { useDraftSaver } from './use_draft_saver.js'
import { Palette } from './Palette.js'
import { PageTabs } from './PageTabs.js'
import { PageCanvas } from './PageCanvas.js'
import { Toolbar } from './Toolbar.js'
import { SaveStatus } from './SaveStatus.js'
import { UnplacedItems } from './UnplacedItems.js'
import { ViewTabs, type EditorView } from './ViewTabs.js'
import { SelectionPanel } from './SelectionPanel.js'
import { ProcessPanel } from '../process/ProcessPanel.js'
import { LogicView } from '../logic/LogicView.js'
import { VersionDiff } from '../versions/VersionDiff.js'
import { JsonView } from '../json/JsonView.js'
import { PreviewView } from '../preview/PreviewView.js'

/** The pointer decides while there is one; a keyboard drag has none, so the nearest place does. */
const collisions: CollisionDetection = (args) => (args.pointerCoordinates ? pointerWithin(args) : closestCenter(args))

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))

export function Editor(props: {
  formId: number
  initial: DesignDocument
  /** Problems the model finds in the document as opened. */
  problems: number
  registry: FieldTypeRegistry
  /** The core's and the enabled plugins' action types (the steps the logic view offers). */
  actionTypes?: ActionTypeRegistry
  /** Published version numbers, newest first (for the versions view). */
  versions: number[]
}) {
  const { formId, initial, registry, actionTypes } = props
  const { t } = useTranslation()
  const design = useDesign(initial)
  const saver = useDraftSaver(formId, design.doc)
  const [device, setDevice] = useState<Device>('computer')
  const [dragging, setDragging] = useState<DragSource>()
  const [view, setView] = useState<EditorView>('form')
  const [versions, setVersions] = useState(props.versions)
  const read = useMemo(
    () => outline(design.doc, registry, design.textLanguage),
    [design.doc, registry, design.textLanguage]
  )

  const sensors = useSensors(
    useSensor(DropClickPointerSensor, { activationConstraint: { distance: 5 } }),
    // An arrow whose place is off screen scrolls the page under the drag: at once, so the screen
    // reader hears the place arrived at, not each one a smooth scroll passes over.
    useSensor(PromptKeyboardSensor, { coordinateGetter: jumpToNearestPlace, scrollBehavior: 'auto' })
  )

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || isTyping(event.target)) return
      const key = event.key.toLowerCase()
      if (key === 'z' && !event.shiftKey) design.undo()
      else if ((key === 'z' && event.shiftKey) || key === 'y') design.redo()
      else return
      event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [design.undo, design.redo])

  const say = (spoken: { key: string; values: Record<string, string | number> }) => t(spoken.key, spoken.values)
  const sourceText = (id: unknown) => {
    const source = parseDragId(id)
    return source ? say(describeSource(source, read)) : ''
  }
  const placeText = (id: unknown) => {
    const place = parseDropId(id)
    return place ? say(describePlace(place, read)) : t('a11y_nowhere')
  }
  // The place a drag starts over is announced at once after the pick-up, in the same task: the live
  // region holds one message, so that first one says both (else the pick-up is never heard).
  const pickedUp = useRef(false)
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      pickedUp.current = true
      return t('a11y_picked', { what: sourceText(active.id) })
    },
    onDragOver: ({ active, over }) => {
      const what = sourceText(active.id)
      const heard = t('a11y_over', { what, where: placeText(over?.id) })
      if (!pickedUp.current) return heard
      pickedUp.current = false
      return `${t('a11y_picked', { what })} ${heard}`
    },
    onDragEnd: ({ active, over }) => {
      pickedUp.current = false
      return over
        ? t('a11y_dropped', { what: sourceText(active.id), where: placeText(over.id) })
        : t('a11y_cancelled', { what: sourceText(active.id) })
    },
    onDragCancel: ({ active }) => {
      pickedUp.current = false
      return t('a11y_cancelled', { what: sourceText(active.id) })
    },
  }

  const onDragStart = (event: DragStartEvent) => setDragging(parseDragId(event.active.id))
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(undefined)
    const source = parseDragId(event.active.id)
    const place = parseDropId(event.over?.id)
    if (!source || !place) return
    const command = dropCommand(design.doc, registry, source, place, design.selection)
    if (command) design.run(command)
    if (place.at === 'page') design.setPage(place.page)
  }

  const shown = read.pages[design.page]
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('a11y_instructions') } }}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragging(undefined)}
    >
      <SaveStatus
        formId={formId}
        doc={design.doc}
        saver={saver}
        opened={props.problems}
        onPublished={(version) => setVersions((now) => [version, ...now])}
      />
      <Toolbar design={design} device={device} onDevice={setDevice} read={read} />
      {design.refused && (
        <p className="notice notice--error" role="alert" data-testid="refused">
          {design.refused}
        </p>
      )}
      <ViewTabs view={view} onView={setView} />
      {view === 'form' && (
        <div className="editor">
          <Palette registry={registry} />
          <div className="editor__canvas">
            <PageTabs design={design} read={read} />
            {shown && <PageCanvas design={design} page={shown} device={device} />}
            <UnplacedItems design={design} items={read.unplaced} />
          </div>
          <SelectionPanel design={design} registry={registry} />
        </div>
      )}
      {view === 'logic' && <LogicView design={design} registry={registry} actionTypes={actionTypes} />}
      {view === 'process' && <ProcessPanel design={design} registry={registry} actionTypes={actionTypes} />}
      {view === 'preview' && <PreviewView doc={design.doc} language={design.textLanguage} />}
      {view === 'json' && (
        <JsonView doc={design.doc} run={(c) => design.run(c)} registry={registry} actionTypes={actionTypes} />
      )}
      {view === 'versions' && <VersionDiff formId={formId} versions={versions} draft={design.doc} />}
      <DragOverlay dropAnimation={null}>
        {dragging && <div className="ditem ditem--overlay">{sourceText(dragIdOf(dragging))}</div>}
      </DragOverlay>
    </DndContext>
  )
}

const dragIdOf = (source: DragSource) =>
  source.from === 'item' ? itemDragId(source.name) : paletteDragId(source.kind, source.type)

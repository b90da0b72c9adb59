/**
 * The ID card scan's state (spec 000 §2, 001 §2): size normal or enlarged (150 %), a first and a
 * second face, each stored by cardim_preview; saving (cardim_full) only when both exist. Kept apart
 * from the dialog so the rules are unit-tested without a DOM.
 */
import { idCardSizeMm } from '@tramita/contract'
import type { UploadedFile } from '../types.js'

export type FaceSide = 'front' | 'back'
export const FACE_SIDES: readonly FaceSide[] = ['front', 'back']
/** What a face may be: an image from an upload or the camera, or a scanner's PDF. */
export const FACE_ACCEPT = 'image/png,image/jpeg,application/pdf,.png,.jpg,.jpeg,.pdf'

/** cardim_preview's answer: the stored face and the card's size at the chosen scale. */
export interface FacePreview {
  path: string
  real_name: string
  ext: string
  width: number
  height: number
}

export interface IdCardState {
  enlarged: boolean
  faces: Partial<Record<FaceSide, FacePreview>>
}

export const initialIdCard: IdCardState = { enlarged: false, faces: {} }

/** Save is offered only when both faces have a scanned file (spec 000 §2). */
export function canSaveIdCard(state: IdCardState): boolean {
  return FACE_SIDES.every((side) => state.faces[side] !== undefined)
}

/** The preview's box in mm: the card's size at the scale chosen now. */
export function previewSize(state: IdCardState) {
  return idCardSizeMm(state.enlarged)
}

/** The calls, over the form's services (their `endpoint`): the faces are this form's field's. */
export interface IdCardCalls {
  preview(side: FaceSide, file: Blob, name: string, enlarged: boolean): Promise<FacePreview>
  full(state: IdCardState): Promise<UploadedFile>
}

export function idCardCalls(
  endpoint: <T>(name: string, fields: Record<string, string | Blob>) => Promise<T>,
  field: string
): IdCardCalls {
  return {
    preview: (_side, file, name, enlarged) =>
      endpoint<FacePreview>('cardim_preview', {
        field,
        ampliar: String(enlarged),
        pdf_one: file instanceof File ? file : new File([file], name, { type: file.type }),
      }),
    async full(state) {
      if (!canSaveIdCard(state)) throw new Error('both faces are needed')
      return endpoint<UploadedFile>('cardim_full', {
        field,
        ampliar: String(state.enlarged),
        pdf_one: state.faces.front!.path,
        pdf_two: state.faces.back!.path,
      })
    },
  }
}

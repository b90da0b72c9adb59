/** The cells of the repeating group whose cell is being edited: that cell's scripts read `row`. */
import { createContext, useContext } from 'react'
import type { ScriptCell } from '../scripts/ScriptEditor.js'

export const RowCellsContext = createContext<readonly ScriptCell[] | undefined>(undefined)

export const useRowCells = () => useContext(RowCellsContext)

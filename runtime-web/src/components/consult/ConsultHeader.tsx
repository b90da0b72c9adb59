import type { BasicForm, CompanyInfo } from '../../lib/consultation.js'
import { fileUrl } from '../../lib/consultation.js'
import { ColorChip } from './ColorChip.js'

/** The company's logo and name, and the process with its colour (spec 000 §2). */
export function ConsultHeader({ company, form }: { company: CompanyInfo | null; form: BasicForm | null }) {
  return (
    <div className="consult-header" data-testid="consult-header">
      {company && (
        <div className="consult-header__company">
          {/* The name is next to it, so the logo itself needs no text. */}
          {company.url_img && <img className="consult-header__logo" src={fileUrl(company.url_img)} alt="" />}
          <span className="consult-header__name">{company.company}</span>
        </div>
      )}
      {form && (
        <ColorChip color={form.color} className="consult-header__process">
          {form.label}
        </ColorChip>
      )}
    </div>
  )
}

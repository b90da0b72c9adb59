/** Where fields sit: pages, sections and the device-dependent page geometry (spec 000 §2, §3). */
import type { Device } from './constants.js'
import type { FormConfig, FormItem } from './config.js'
import type { PageConfig } from './schema/form.js'

/** Page width in percent for a device, from the page's style (100 / 90 / 70 by default). */
export function pageWidth(page: PageConfig, device: Device): number {
  return page.style.responsive[device]
}

/** The background image's proportion: the style's value, halved on tablets (spec: tablet gets half). */
export function backgroundProportion(page: PageConfig, device: Device): number {
  const proportion = page.style.background_proportion
  return device === 'tablet' ? proportion / 2 : proportion
}

/** Indices of the pages a user navigates through: sections are skipped. */
export function navigablePages(config: FormConfig): number[] {
  return config.form.pages.flatMap((page, index) => (page.section ? [] : [index]))
}

/** Every field and element by name. */
export function itemsByName(config: FormConfig): Map<string, { item: FormItem; kind: 'field' | 'element' }> {
  const map = new Map<string, { item: FormItem; kind: 'field' | 'element' }>()
  for (const item of config.fields) map.set(item.field_name, { item, kind: 'field' })
  for (const item of config.elements) map.set(item.field_name, { item, kind: 'element' })
  return map
}

/**
 * For each name on a layout, the page it is on. A name on a section page is reached through the
 * `section` elements that show that section (the runtime jumps to the page holding them).
 */
export function placements(config: FormConfig): Map<string, number[]> {
  const onPage = new Map<string, number[]>()
  config.form.pages.forEach((page, index) => {
    for (const row of page.layout) {
      for (const name of row) onPage.set(name, [...(onPage.get(name) ?? []), index])
    }
  })
  return onPage
}

/** Section pages by their section_id. */
export function sectionPages(config: FormConfig): Map<string, number> {
  const map = new Map<string, number>()
  config.form.pages.forEach((page, index) => {
    if (page.section && page.section_id) map.set(page.section_id, index)
  })
  return map
}

/** How the page names a judgement's facets: its model, error flags, case facet and grade. */
import { data } from './store.js';

/** The answer's model, with the refinement method of a refined answer. */
export function modelOf(row: number): string {
  const x = data.rows.x ? (data.rows.x[row] ?? -1) : -1;
  return data.models[data.rows.m[row]!] + (x >= 0 ? ` · refined ${data.methods[x]}` : '');
}

/** E1–E6 flags of a bitmask as "E1 E4". */
export function errorText(bits: number): string {
  const out: string[] = [];
  for (let k = 0; k < 6; k += 1) if (bits & (1 << k)) out.push(`E${k + 1}`);
  return out.join(' ');
}

/** The case's distractor level, or its horizon and stage. */
export function facetText(c: number): string {
  const C = data.cases;
  if (C.level[c]! >= 0) return `${C.level[c]} distractors`;
  if (C.horizon[c]! >= 0)
    return `${C.horizon[c]}-step${C.stage[c]! >= 0 ? `, ${data.stages[C.stage[c]!]}` : ''}`;
  return '';
}

/** A grade stored ×5 as 0–1 text, "–" when there is none. */
export function gradeText(g: number): string {
  return g < 0 ? '–' : (g / 5).toFixed(1);
}

/**
 * The case, shared by every answer to it: query, system prompt, tools (distractors and the broken
 * tool marked), files (images only as data:image URLs), the executed trajectory and the reference.
 */
import { el, field, pre, section, type Child } from './dom.js';
import type { CaseDetail } from './page-data.js';
import { mediaItem } from './store.js';

const SAFE_IMAGE = /^data:image\/(png|jpeg|gif|webp|bmp);base64,[A-Za-z0-9+/=]+$/;

function toolsSection(detail: CaseDetail): HTMLElement {
  const distractors = new Set(detail.reference.extraneousTools);
  const items = detail.tools.map((tool) => {
    const marks: Child[] = [];
    if (distractors.has(tool.name))
      marks.push(el('span', { className: 'badge warn', text: 'distractor' }));
    if (tool.name === detail.reference.brokenTool)
      marks.push(el('span', { className: 'badge fail', text: 'broken' }));
    return el('li', {}, [
      el('code', { text: tool.name }),
      ' ',
      ...marks,
      tool.cost !== null ? ` cost ${tool.cost} · ` : ' ',
      tool.description,
      tool.parameters
        ? el('details', {}, [el('summary', { text: 'parameters' }), pre(tool.parameters)])
        : null,
    ]);
  });
  const list = el('ul', { className: 'tools' }, items);
  return section(`Tools (${detail.tools.length})`, [list], detail.tools.length <= 12);
}

function filesSection(detail: CaseDetail): HTMLElement {
  const figures = detail.files.map((file) => {
    const item = file.media === null ? null : mediaItem(file.media);
    const label = file.path + (file.label ? ` (${file.label})` : '');
    const caption = el('figcaption', { text: label });
    if (item && item.dataUrl && SAFE_IMAGE.test(item.dataUrl)) {
      const image = el('img', { alt: file.path, className: 'case-image' }) as HTMLImageElement;
      image.src = item.dataUrl;
      return el('figure', {}, [image, caption]);
    }
    const note = file.note || item?.note || 'not embedded';
    return el('figure', {}, [caption, el('p', { className: 'note', text: note })]);
  });
  return section('Files', figures);
}

function trajectorySection(detail: CaseDetail): HTMLElement {
  const messages = detail.trajectory.map((message) =>
    el('li', {}, [
      el('strong', { text: message.role }),
      message.text ? pre(message.text) : null,
      ...message.calls.map((call) => el('code', { className: 'call', text: call })),
    ]),
  );
  const title = `Executed trajectory (${detail.trajectory.length} messages)`;
  return section(title, [el('ol', { className: 'trajectory' }, messages)], false);
}

function referenceSection(detail: CaseDetail): HTMLElement {
  const ref = detail.reference;
  const block = (title: string, text: string | null) =>
    text ? el('div', {}, [el('h4', { text: title }), pre(text)]) : null;
  const folded = (title: string, text: string | null) =>
    text ? el('details', {}, [el('summary', { text: title }), pre(text)]) : null;
  const children = [
    field('Unsolvable type', ref.unsolvableType),
    field('Broken tool', ref.brokenTool),
    ref.extraneousTools.length ? field('Distractor tools', ref.extraneousTools.join(', ')) : null,
    block('Plan', ref.plan),
    block('Tool chain', ref.toolChain),
    block('Next steps', ref.nextSteps),
    folded('Remaining steps', ref.remainingSteps),
    folded('Replacement tool', ref.replacementTool),
  ];
  return section('Reference', children, false);
}

/** The case's sections, in reading order. */
export function caseView(detail: CaseDetail): HTMLElement[] {
  const facets = Object.entries(detail.facets)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) => `${key}: ${value}`)
    .join(' · ');
  const parts = [el('p', { className: 'facets', text: facets })];
  parts.push(section('Query', [pre(detail.query, 'query-text')]));
  if (detail.system) parts.push(section('System prompt', [pre(detail.system)], false));
  if (detail.tools.length) parts.push(toolsSection(detail));
  if (detail.files.length) parts.push(filesSection(detail));
  if (detail.trajectory.length) parts.push(trajectorySection(detail));
  parts.push(referenceSection(detail));
  return parts;
}

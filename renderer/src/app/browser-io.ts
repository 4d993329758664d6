// Files and the clipboard, from the renderer, for every screen.
//
// A download is a Blob behind a temporary <a download> link: downloads are not governed by the
// page's CSP (no script, style or connection is involved), so it stays as strict as it is.
//
// Copying: the app lets only its own page write the clipboard (main/app-security.ts), so the async
// Clipboard API is tried first, then a hidden textarea with document.execCommand('copy') (which needs
// only the click that started it), and as a last resort the shown text is selected for Ctrl+C.

export function downloadText(fileName: string, text: string, mime: string): void {
  downloadBlob(fileName, new Blob([text], { type: mime }));
}

/** A file main sent as base64 (an XLSX workbook...). */
export function downloadBase64(fileName: string, base64: string, mime: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  downloadBlob(fileName, new Blob([bytes], { type: mime }));
}

function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start reading the Blob before it is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export type CopyOutcome = 'clipboard' | 'command' | 'failed';

function copyWithCommand(text: string): boolean {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.style.position = 'fixed';
  area.style.insetBlockStart = '0';
  area.style.insetInlineStart = '0';
  area.style.opacity = '0';
  area.style.pointerEvents = 'none';
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  previous?.focus({ preventScroll: true });
  return ok;
}

/** Copies `text`; says which way worked, or 'failed'. */
export async function copyText(text: string): Promise<CopyOutcome> {
  try {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      await navigator.clipboard.writeText(text);
      return 'clipboard';
    }
  } catch {
    // Refused (permission policy, no focus): fall back below.
  }
  return copyWithCommand(text) ? 'command' : 'failed';
}

/** Selects the text of an element, so that the user can copy it with Ctrl+C. */
export function selectContents(element: HTMLElement | null): void {
  if (!element) return;
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

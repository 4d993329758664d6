// Saves a file the screen made (the results CSV): a Blob behind a temporary <a download> link.
// Downloads are not governed by the page's CSP, so it stays as strict as it is.
export function downloadText(fileName: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
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

/** Hands a blob (an image, a fetched export) to the browser's download under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  const url = URL.createObjectURL(blob);
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

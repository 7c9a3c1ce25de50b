/** Hands a fetched file to the browser's download (the API needs credentials a plain link would not carry). */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  const url = URL.createObjectURL(blob);
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The last path segment of a URL, decoded, when it looks like a file name. */
export function fileNameFromUrl(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop();
    const name = last ? decodeURIComponent(last) : '';
    return /\.[A-Za-z0-9]{1,8}$/.test(name) && name.length <= 255 ? name : undefined;
  } catch {
    return undefined;
  }
}

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

/** A document's mimetype from its file name, when the extension is a common one. */
export function mimetypeOfFileName(name: string | undefined): string | undefined {
  const ext = name?.split('.').pop()?.toLowerCase();
  return ext ? BY_EXTENSION[ext] : undefined;
}
